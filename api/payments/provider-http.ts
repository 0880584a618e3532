import { GatewayUnavailable, type HostedGatewayName } from "./types";

const PROVIDER_TIMEOUT_MS = 15_000;

/**
 * POSTs JSON to a provider and answers its JSON. Any network failure, timeout, non-2xx status or
 * non-JSON answer becomes GatewayUnavailable, with the provider's status in the message but never our key.
 */
export async function postJsonToProvider(
  gateway: HostedGatewayName,
  url: string,
  headers: Record<string, string>,
  body: unknown,
): Promise<unknown> {
  let response: Response;
  try {
    response = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json", ...headers },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(PROVIDER_TIMEOUT_MS),
      redirect: "error",
    });
  } catch (error) {
    throw new GatewayUnavailable(gateway, `${gateway} could not be reached: ${(error as Error).message}`, {
      cause: error,
    });
  }
  const text = await response.text();
  if (!response.ok) {
    throw new GatewayUnavailable(gateway, `${gateway} answered ${response.status}: ${text.slice(0, 300)}`);
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new GatewayUnavailable(gateway, `${gateway} answered ${response.status} with a body that is not JSON`);
  }
}
