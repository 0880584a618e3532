import { createHmac, randomBytes, randomUUID } from "node:crypto";
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import type { GatewayCredentials } from "../../api/config";

/*
 * Local stand-ins for the payment providers' HTTP APIs, on one real socket, so the adapters are tested
 * through their real HTTP clients (the Stripe SDK, fetch). Each checks the provider's authentication the
 * way the provider does, records every request, and answers in the provider's format:
 *   Stripe            POST /v1/checkout/sessions  (form-encoded, Authorization: Bearer <secret key>)
 *   Coinbase Commerce POST /coinbase/charges      (JSON, X-CC-Api-Key, X-CC-Version)
 *   Shoppy            POST /shoppy/api/v1/pay     (JSON, Authorization: <api key>)
 * It also signs webhooks exactly as Coinbase and Shoppy do, computed here independently of the adapters.
 */

export type FakeGatewayName = "stripe" | "coinbase" | "shoppy";

export type RecordedRequest = {
  gateway: FakeGatewayName;
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
};

export type FakeGateways = Awaited<ReturnType<typeof startFakeGateways>>;

const KEYS = {
  stripe: { apiKey: "sk_test_fake_stripe_key", webhookSecret: "whsec_fake_stripe_secret" },
  coinbase: { apiKey: "fake-coinbase-api-key", webhookSecret: "fake-coinbase-webhook-secret" },
  shoppy: { apiKey: "fake-shoppy-api-key", webhookSecret: "fake-shoppy-webhook-secret" },
} as const;

type Answer = { status: number; body: unknown };

function gatewayOf(path: string): FakeGatewayName | undefined {
  if (path === "/v1/checkout/sessions") return "stripe";
  if (path === "/coinbase/charges") return "coinbase";
  if (path === "/shoppy/api/v1/pay") return "shoppy";
  return undefined;
}

function answerStripe(request: RecordedRequest): Answer {
  if (request.headers.authorization !== `Bearer ${KEYS.stripe.apiKey}`) {
    return { status: 401, body: { error: { type: "invalid_request_error", message: "Invalid API Key provided" } } };
  }
  const form = new URLSearchParams(request.body);
  const metadata: Record<string, string> = {};
  for (const [key, value] of form) {
    const name = /^metadata\[(.+)\]$/.exec(key)?.[1];
    if (name) metadata[name] = value;
  }
  const id = `cs_test_${randomBytes(12).toString("hex")}`;
  return {
    status: 200,
    body: {
      id,
      object: "checkout.session",
      mode: form.get("mode"),
      status: "open",
      payment_status: "unpaid",
      amount_total: Number(form.get("line_items[0][price_data][unit_amount]")),
      currency: form.get("line_items[0][price_data][currency]"),
      client_reference_id: form.get("client_reference_id"),
      customer_email: form.get("customer_email"),
      metadata,
      success_url: form.get("success_url"),
      cancel_url: form.get("cancel_url"),
      url: `https://checkout.stripe.test/c/pay/${id}`,
    },
  };
}

function answerCoinbase(request: RecordedRequest): Answer {
  if (request.headers["x-cc-api-key"] !== KEYS.coinbase.apiKey || request.headers["x-cc-version"] !== "2018-03-22") {
    return { status: 401, body: { error: { type: "authorization_error", message: "No such API key." } } };
  }
  const charge = JSON.parse(request.body) as { local_price: unknown; metadata: unknown; name: string };
  const code = randomBytes(4).toString("hex").toUpperCase();
  return {
    status: 201,
    body: {
      data: {
        id: randomUUID(),
        code,
        name: charge.name,
        hosted_url: `https://commerce.coinbase.test/charges/${code}`,
        pricing: { local: charge.local_price },
        metadata: charge.metadata,
      },
    },
  };
}

function answerShoppy(request: RecordedRequest): Answer {
  if (request.headers.authorization !== KEYS.shoppy.apiKey) {
    return { status: 401, body: { status: false, message: "Unauthenticated." } };
  }
  const id = randomUUID();
  return { status: 200, body: { status: true, id, url: `https://shoppy.test/pay/${id}` } };
}

const ANSWERS: Record<FakeGatewayName, (request: RecordedRequest) => Answer> = {
  stripe: answerStripe,
  coinbase: answerCoinbase,
  shoppy: answerShoppy,
};

/** Starts the fake providers on a free port of 127.0.0.1. */
export async function startFakeGateways() {
  const requests: RecordedRequest[] = [];
  const forced = new Map<FakeGatewayName, Answer[]>();

  const server = createServer((incoming, outgoing) => {
    const chunks: Buffer[] = [];
    incoming.on("data", (chunk: Buffer) => chunks.push(chunk));
    incoming.on("end", () => {
      const path = new URL(incoming.url ?? "/", "http://fake").pathname;
      const gateway = gatewayOf(path);
      let answer: Answer = { status: 404, body: { error: `no fake route for ${incoming.method} ${path}` } };
      if (gateway && incoming.method === "POST") {
        const request = {
          gateway,
          method: incoming.method,
          path,
          headers: incoming.headers,
          body: Buffer.concat(chunks).toString("utf8"),
        };
        requests.push(request);
        answer = forced.get(gateway)?.shift() ?? ANSWERS[gateway](request);
      }
      outgoing.writeHead(answer.status, { "content-type": "application/json" });
      outgoing.end(typeof answer.body === "string" ? answer.body : JSON.stringify(answer.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const credentials: Record<FakeGatewayName, GatewayCredentials> = {
    stripe: { ...KEYS.stripe, apiBase: url },
    coinbase: { ...KEYS.coinbase, apiBase: `${url}/coinbase` },
    shoppy: { ...KEYS.shoppy, apiBase: `${url}/shoppy/api/v1` },
  };

  return {
    url,
    credentials,
    /** Every request the fakes received, oldest first. */
    requests,
    requestsTo: (gateway: FakeGatewayName) => requests.filter((request) => request.gateway === gateway),
    /** The next request to this gateway gets this answer instead of the normal one (a string body is sent raw). */
    answerNextWith(gateway: FakeGatewayName, status: number, body: unknown) {
      forced.set(gateway, [...(forced.get(gateway) ?? []), { status, body }]);
    },
    reset() {
      requests.length = 0;
      forced.clear();
    },
    close: () => new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve()))),
  };
}

/** A webhook delivery as Coinbase Commerce sends it: X-CC-Webhook-Signature is the hex HMAC-SHA256 of the body. */
export function coinbaseWebhook(event: unknown, secret: string = KEYS.coinbase.webhookSecret) {
  const body = JSON.stringify({ id: randomUUID(), scheduled_for: new Date().toISOString(), attempt_number: 1, event });
  return {
    body,
    headers: new Headers({
      "content-type": "application/json",
      "x-cc-webhook-signature": hmac("sha256", secret, body),
    }),
  };
}

/** A webhook delivery as Shoppy sends it: X-Shoppy-Signature is the hex HMAC-SHA512 of the body. */
export function shoppyWebhook(payload: unknown, secret: string = KEYS.shoppy.webhookSecret) {
  const body = JSON.stringify(payload);
  return {
    body,
    headers: new Headers({ "content-type": "application/json", "x-shoppy-signature": hmac("sha512", secret, body) }),
  };
}

function hmac(algorithm: "sha256" | "sha512", secret: string, body: string): string {
  return createHmac(algorithm, secret).update(body).digest("hex");
}
