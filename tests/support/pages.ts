import type { ActionFunctionArgs, AppLoadContext, LoaderFunctionArgs } from "@remix-run/node";
import type { Api } from "../../api/app";
import { type ApiCaller, inProcessCaller } from "../../api/in-process";
import { type Logger, createLogger } from "../../api/logger";
import type { UiSettings } from "../../app/load-context";
import { sessionCookies } from "../../app/lib/session.server";
import { type Toast, readToast } from "../../app/lib/toast.server";
import { checkAnswer, checkRequest } from "./contract";
import { type ShopTestApi, createShopTestApi } from "./shop";

/*
 * Page tests (issue 28): a route module's loader and action called directly, over the in-process /v1 of a test
 * database, as server.ts calls them, with a cookie jar that plays the browser. They prove what a page does with a
 * post (status, redirect, cookies, toast, form errors) without starting a browser; the browser suite keeps the
 * journeys, with JavaScript on and off.
 */

const ORIGIN = "http://store.test";

type Params = Record<string, string>;
type RouteModule = {
  loader?: (args: LoaderFunctionArgs) => unknown;
  action?: (args: ActionFunctionArgs) => unknown;
};

/** What a loader or action answered, read the way a browser would. */
export type PageAnswer = {
  status: number;
  /** Where a redirect sends the browser. */
  location?: string;
  /** The answer's data: what useLoaderData/useActionData would see. */
  data?: any;
  /** The toast a redirect flashed, as the next page shows it. */
  toast?: Toast;
  headers: Headers;
};

/**
 * The in-process /v1 as the pages call it, with every JSON answer checked against its route's contract (the zod
 * declaration and /v1/openapi.json, tests/support/contract.ts), as an API test's answers are. A breach is thrown
 * and also handed to `onBreach`: a page that catches a failed call (a degraded panel) cannot hide it from the test.
 * Files (a CSV, a download) are not JSON and pass untouched.
 */
export function contractCheckedCaller(api: Api, clientIp: string, onBreach: (breach: Error) => void): ApiCaller {
  const call = inProcessCaller(api, clientIp);
  const checked = (check: () => void) => {
    try {
      check();
    } catch (breach) {
      onBreach(breach as Error);
      throw breach;
    }
  };
  return async (path, init) => {
    const method = (init?.method ?? "GET").toUpperCase();
    const sendsJson = new Headers(init?.headers).get("content-type")?.includes("json");
    if (sendsJson && typeof init?.body === "string") {
      const body: unknown = JSON.parse(init.body);
      checked(() => checkRequest(api, method, path, body));
    }
    const response = await call(path, init);
    if (response.headers.get("content-type")?.includes("application/json")) {
      const body: unknown = await response.clone().json();
      checked(() => checkAnswer(api, method, path, response.status, body));
    }
    return response;
  };
}

export type PageTest = Awaited<ReturnType<typeof createPageTest>>;

export async function createPageTest(
  env: Record<string, string> = {},
  options: {
    onQuery?: (statement: string) => void;
    /** Every /v1 call a loader or action makes, by path. */
    onApiCall?: (path: string) => void;
    logger?: Logger;
  } = {},
) {
  const shop: ShopTestApi = await createShopTestApi(env, options);
  const logger = options.logger ?? createLogger("silent");
  const settings: UiSettings = {
    sessionSecrets: ["page-test-session-secret-".padEnd(48, "x")],
    servedOverHttps: false,
    inlineStylesheet: null,
    trustsApiAnswers: true,
  };
  const jar = new Map<string, string>();
  const breaches: Error[] = [];
  const counted =
    (caller: AppLoadContext["callApi"]): AppLoadContext["callApi"] =>
    (path, init) => {
      options.onApiCall?.(path);
      return caller(path, init);
    };

  const context = (method: string): AppLoadContext => ({
    cspNonce: "page-test-nonce",
    callApi: counted(contractCheckedCaller(shop.api, "203.0.113.50", (breach) => breaches.push(breach))),
    requestId: "page-test",
    logger,
    settings,
    requestMethod: method,
  });

  const cookieHeader = () => [...jar].map(([name, value]) => `${name}=${value}`).join("; ");

  function keepCookies(headers: Headers) {
    for (const cookie of headers.getSetCookie()) {
      const [pair, ...attributes] = cookie.split(";");
      const at = pair.indexOf("=");
      const name = pair.slice(0, at).trim();
      const value = pair.slice(at + 1).trim();
      const expired = attributes.some((attribute) => /^\s*(max-age=0|expires=thu, 01 jan 1970)/i.test(attribute));
      if (expired || value === "") jar.delete(name);
      else jar.set(name, value);
    }
  }

  function request(path: string, init: RequestInit = {}): Request {
    const headers = new Headers(init.headers);
    if (jar.size > 0) headers.set("cookie", cookieHeader());
    return new Request(ORIGIN + path, { ...init, headers });
  }

  /** Reads a loader's or action's result (returned or thrown) as the browser gets it. */
  async function settle(result: unknown): Promise<PageAnswer> {
    if (result instanceof Response) {
      keepCookies(result.headers);
      const location = result.headers.get("location") ?? undefined;
      let toast: Toast | undefined;
      if (location) ({ toast } = await readToast(request(location), context("GET")));
      const type = result.headers.get("content-type") ?? "";
      const data = location ? undefined : type.includes("json") ? await result.json() : await result.text();
      return { status: result.status, location, data, toast, headers: result.headers };
    }
    // Remix's data(value, init): the value with its status and headers.
    if (result && typeof result === "object" && (result as { type?: string }).type === "DataWithResponseInit") {
      const { data, init } = result as { data: unknown; init?: ResponseInit | null };
      const headers = new Headers(init?.headers);
      keepCookies(headers);
      return { status: init?.status ?? 200, data, headers };
    }
    return { status: 200, data: result, headers: new Headers() };
  }

  async function run(call: () => unknown): Promise<PageAnswer> {
    breaches.length = 0;
    let answer: PageAnswer;
    try {
      answer = await settle(await call());
    } catch (thrown) {
      if (!(thrown instanceof Response)) throw breaches[0] ?? thrown;
      answer = await settle(thrown);
    }
    // The page may have caught the failed call and answered anyway: the breach still fails the test.
    if (breaches.length > 0) throw breaches[0];
    return answer;
  }

  return {
    shop,
    db: shop.db,
    jar,
    /** Signs this browser in with a session token, as a sign-in would have left it. */
    async signIn(token: string) {
      const headers = new Headers();
      for (const cookie of await sessionCookies(context("GET"), token)) headers.append("set-cookie", cookie);
      keepCookies(headers);
    },
    /** GET `path` through the module's loader. */
    load(module: RouteModule, path: string, params: Params = {}) {
      if (!module.loader) throw new Error(`no loader for ${path}`);
      return run(() => module.loader!({ request: request(path), context: context("GET"), params }));
    },
    /**
     * GET `path` as Remix does: the root's loader and the route's at once, both loaders' data returned.
     */
    async loadPage(module: RouteModule, path: string, params: Params = {}) {
      const root = await import("../../app/root");
      const run = (loader: RouteModule["loader"]) =>
        loader!({ request: request(path), context: shared, params }) as Promise<unknown>;
      const shared = context("GET");
      breaches.length = 0;
      const [rootData, routeData] = await Promise.all([run(root.loader as RouteModule["loader"]), run(module.loader)]);
      if (breaches.length > 0) throw breaches[0];
      return { rootData, routeData };
    },
    /** POST the form `fields` to `path` through the module's action, as a same-origin form post. */
    post(module: RouteModule, path: string, fields: Record<string, string | string[]>, params: Params = {}) {
      if (!module.action) throw new Error(`no action for ${path}`);
      const body = new URLSearchParams();
      for (const [name, value] of Object.entries(fields)) {
        for (const one of Array.isArray(value) ? value : [value]) body.append(name, one);
      }
      const init = { method: "POST", body, headers: { origin: ORIGIN } };
      return run(() => module.action!({ request: request(path, init), context: context("POST"), params }));
    },
    close: () => shop.close(),
  };
}
