// autocannon ships no types; this declares the part of its programmatic API that bench/run.ts uses.
declare module "autocannon" {
  export type Histogram = {
    average: number;
    mean: number;
    stddev: number;
    min: number;
    max: number;
    p50: number;
    p99: number;
  };
  export type Result = {
    requests: Histogram & { total: number; sent: number };
    latency: Histogram;
    errors: number;
    timeouts: number;
    non2xx: number;
    statusCodeStats: Record<string, { count: number }>;
  };
  export type Options = {
    url: string;
    method?: "GET" | "POST";
    body?: string;
    connections?: number;
    duration?: number;
    pipelining?: number;
    timeout?: number;
    headers?: Record<string, string>;
    warmup?: { connections?: number; duration?: number };
  };
  /** The run; it emits "response" for every answer of the measured part (not the warm-up). */
  export type Instance = Promise<Result> & {
    on(
      event: "response",
      listener: (client: unknown, statusCode: number, bytes: number, responseTimeMs: number) => void,
    ): Instance;
  };
  export default function autocannon(options: Options): Instance;
}
