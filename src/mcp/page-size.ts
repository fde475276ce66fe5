/**
 * Checks an MCP `tools/list` page size: a positive integer, or absent for one page holding every
 * tool (issue 19: clients that never follow `nextCursor` must still see every tool). No SDK
 * import, so `serve` can check it at start-up without loading hosted MCP.
 */
export function checkPageSize(pageSize: number | undefined): number | undefined {
  if (pageSize !== undefined && !(Number.isInteger(pageSize) && pageSize > 0)) {
    throw new RangeError(`MCP page size must be a positive integer, got ${String(pageSize)}`)
  }
  return pageSize
}
