-- A paid order whose manual line staff have not delivered (nor refunded) is processing, not completed (ADR 037).
UPDATE "orders" SET "status" = 'processing'
WHERE "status" IN ('completed', 'partiallyComplete')
  AND EXISTS (
    SELECT 1 FROM "order_products" AS "line"
    WHERE "line"."order_id" = "orders"."id" AND "line"."fulfil_mode" = 'manual'
      AND NOT "line"."is_replacement" AND "line"."refunded_at" IS NULL
      AND (SELECT count(*) FROM "delivered_credentials" WHERE "order_product_id" = "line"."id") < "line"."quantity"
  );--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_status_known" CHECK ("orders"."status" in ('pending', 'processing', 'completed', 'partiallyComplete', 'expired', 'cancelled'));
