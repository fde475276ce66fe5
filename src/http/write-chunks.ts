import type { ServerResponse } from 'node:http'

/** A body sent in chunks: a kept listing and the few bytes around it (issue 35). */
export interface ChunkedBody {
  status: number
  type: string
  chunks: readonly Buffer[]
}

/**
 * Writes a body in chunks with its `Content-Length`, without joining them: corked, so headers and
 * chunks leave in one `writev`. Joining a 160 KB listing to its JSON-RPC envelope made a string per
 * request that went straight to the old generation.
 */
export function writeChunks(res: ServerResponse, body: ChunkedBody): void {
  let length = 0
  for (const chunk of body.chunks) length += chunk.length
  res.statusCode = body.status
  res.setHeader('Content-Type', body.type)
  res.setHeader('Content-Length', length)
  res.cork()
  for (let i = 0; i < body.chunks.length - 1; i++) res.write(body.chunks[i])
  // `end` uncorks the socket fully: headers and every chunk go in one write.
  res.end(body.chunks.at(-1))
}
