import type { AppLoadContext } from "@remix-run/node";
import { z } from "zod";
import { cookiesOf } from "./cookies.server";

/*
 * The one place that builds /v1 requests. Resource modules (catalogue.server.ts, cart.server.ts, ...)
 * call `apiCall` with a zod schema of the payload they expect. A 4xx comes back as a value the
 * caller can turn into form errors; a 404 can be thrown as a 404 page; anything else (5xx, a broken
 * answer) is thrown to the error boundary.
 */

export type ApiFailure = {
  ok: false;
  status: number;
  message: string;
  errors?: Record<string, string[]>;
  /** The API wants a human-check answer with the next try (sign-in after many failures). */
  humanCheckRequired?: boolean;
};
export type ApiSuccess<T> = { ok: true; status: number; message: string; payload: T };
export type ApiResult<T> = ApiSuccess<T> | ApiFailure;

const failureSchema = z.object({
  success: z.literal(false),
  message: z.string().default("Request failed"),
  errors: z.record(z.array(z.string())).optional(),
  humanCheckRequired: z.boolean().optional(),
});

const successEnvelopeSchema = z.object({ success: z.literal(true), message: z.string() });

export class ApiUnavailableError extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
    this.name = "ApiUnavailableError";
  }
}

export type ApiCallOptions<S extends z.ZodTypeAny> = {
  method?: "GET" | "POST" | "PUT" | "DELETE";
  path: string;
  body?: unknown;
  /** The incoming page request: its token cookie becomes the bearer header. */
  request?: Request;
  /** Overrides the token from the cookie (guest checkout uses a fresh one). */
  token?: string;
  /** Sent as the Idempotency-Key header: a repeat of the same form post answers the first result. */
  idempotencyKey?: string;
  /**
   * The route's answer schema from contract/answers: it types the payload, and validates it only when the
   * answer comes from a remote /v1 (API_URL); this process's own answers are proven by the API tests.
   */
  answer: S;
};

export async function apiCall<S extends z.ZodTypeAny>(
  context: AppLoadContext,
  options: ApiCallOptions<S>,
): Promise<ApiResult<z.output<S>>> {
  // The API's log lines then carry the page request's id.
  const headers = new Headers({ accept: "application/json", "x-request-id": context.requestId });
  const token = options.token ?? (options.request && (await cookiesOf(context).token.read(options.request)));
  if (token) headers.set("authorization", `Bearer ${token}`);
  if (options.body !== undefined) headers.set("content-type", "application/json");
  if (options.idempotencyKey) headers.set("idempotency-key", options.idempotencyKey);

  const response = await context.callApi(options.path, {
    method: options.method ?? (options.body === undefined ? "GET" : "POST"),
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  const json: unknown = await response.json().catch(() => undefined);

  if (response.status >= 500 || json === undefined) {
    throw new ApiUnavailableError(`${options.path} answered ${response.status}`, response.status);
  }
  if (!response.ok) {
    const failure = failureSchema.safeParse(json);
    return {
      ok: false,
      status: response.status,
      message: failure.success ? failure.data.message : "Request failed",
      errors: failure.success ? failure.data.errors : undefined,
      humanCheckRequired: failure.success ? failure.data.humanCheckRequired : undefined,
    };
  }
  if (context.settings.trustsApiAnswers) {
    const { message, payload } = json as { message: string; payload: z.output<S> };
    return { ok: true, status: response.status, message, payload };
  }
  // The envelope and the payload are checked apart, so no schema is built per call.
  const unexpected = (error: z.ZodError) =>
    new ApiUnavailableError(`${options.path} answered an unexpected shape: ${error.issues[0]?.message}`, 502);
  const envelope = successEnvelopeSchema.safeParse(json);
  if (!envelope.success) throw unexpected(envelope.error);
  const payload = options.answer.safeParse((json as { payload?: unknown }).payload);
  if (!payload.success) throw unexpected(payload.error);
  return { ok: true, status: response.status, message: envelope.data.message, payload: payload.data };
}

/**
 * For loaders: the payload, a thrown 404 or 400 page, or a thrown error for the boundary. A loader's call
 * carries what the address asked for (a search, a category), so the API's 400 is the visitor's bad address
 * (a control character in ?q=, issue 36): a 400 page, never a 500 logged as our failure.
 */
export async function apiPayload<S extends z.ZodTypeAny>(
  context: AppLoadContext,
  options: ApiCallOptions<S>,
): Promise<z.output<S>> {
  const result = await apiCall(context, options);
  if (result.ok) return result.payload;
  if (result.status === 404 || result.status === 400) throw new Response(result.message, { status: result.status });
  throw new ApiUnavailableError(`${options.path} answered ${result.status}: ${result.message}`, result.status);
}
