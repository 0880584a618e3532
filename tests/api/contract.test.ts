import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkAnswer } from "../support/contract";
import { type TestApi, createTestApi } from "../support/api";

/*
 * The check every API test's answers go through (tests/support/contract.ts): here it is shown to refuse an
 * answer that drifts from the route's declaration, so the silence of the other tests means something.
 */

let t: TestApi;
beforeAll(async () => {
  t = await createTestApi();
});
afterAll(() => t.close());

const category = { _id: "gWwCti4aIQ7vdHgY-vB4_p", name: "Streaming" };
const envelope = (payload: unknown) => ({ success: true, message: "OK", payload });

describe("an answer checked against its route's declared schema", () => {
  it("passes when it is exactly what the route declares", () => {
    expect(() => checkAnswer(t.api, "GET", "/v1/category/read", 200, envelope([category]))).not.toThrow();
    expect(() =>
      checkAnswer(t.api, "GET", "/v1/product/option/read/gWwCti4aIQ7vdHgY-vB4_p", 404, {
        success: false,
        message: "Product not found",
      }),
    ).not.toThrow();
  });

  it("fails on a field the declaration does not name, a missing one, or one of another type", () => {
    expect(() => checkAnswer(t.api, "GET", "/v1/category/read", 200, envelope([{ ...category, position: 1 }]))).toThrow(
      /body.payload.0.position: answered, but the declaration does not name it/,
    );
    expect(() => checkAnswer(t.api, "GET", "/v1/category/read", 200, envelope([{ _id: category._id }]))).toThrow(
      /body.payload.0.name: Required/,
    );
    expect(() => checkAnswer(t.api, "GET", "/v1/category/read", 200, envelope([{ ...category, name: 7 }]))).toThrow(
      /GET \/v1\/category\/read answered 200 outside its declared schema/,
    );
    // A declared failure is checked too: the envelope of every refusal.
    expect(() =>
      checkAnswer(t.api, "GET", "/v1/product/option/read/gWwCti4aIQ7vdHgY-vB4_p", 404, { message: "gone" }),
    ).toThrow(/body.success/);
  });

  it("is what the real answers of a route pass", async () => {
    const answer = await t.get("/v1/category/read");
    expect(answer.status).toBe(200);
  });
});
