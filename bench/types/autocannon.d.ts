/** The slice of autocannon 9's API the bench uses (the package ships no types). */
declare module 'autocannon' {
  interface Histogram {
    average: number
    mean: number
    p50: number
    p90: number
    p99: number
    max: number
    total: number
  }
  interface Result {
    requests: Histogram
    latency: Histogram
    throughput: Histogram
    duration: number
    errors: number
    timeouts: number
    non2xx: number
    statusCodeStats: Record<string, { count: number }>
  }
  interface Options {
    url: string
    method?: string
    headers?: Record<string, string>
    body?: string
    connections?: number
    duration?: number
    timeout?: number
    requests?: Array<{ method?: string; path?: string; body?: string; headers?: Record<string, string>; setupRequest?: (req: Record<string, unknown>, context: Record<string, unknown>) => Record<string, unknown> }>
  }
  type Instance = Promise<Result> & { stop(): void }
  function autocannon(options: Options): Instance
  export default autocannon
}
