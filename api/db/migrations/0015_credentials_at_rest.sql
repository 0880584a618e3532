-- ADR 056: the goods encrypted at rest. Rows written before keep their plain values until the store encrypts them
-- in batches after start (SQL cannot: the key is outside the database). NOT VALID: every existing row has both plain
-- values (they were NOT NULL), and checking a large stock table here would hold its lock through the scan.
ALTER TABLE "stock_credentials" ALTER COLUMN "username" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "stock_credentials" ALTER COLUMN "password" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "stock_credentials" ADD COLUMN "secret" text;--> statement-breakpoint
ALTER TABLE "stock_credentials" ADD COLUMN "key_id" text;--> statement-breakpoint
ALTER TABLE "stock_credentials" ADD COLUMN "username_lookup" text;--> statement-breakpoint
ALTER TABLE "stock_credentials" ADD COLUMN "account_lookup" text;--> statement-breakpoint
CREATE INDEX "stock_credentials_option_account_lookup_idx" ON "stock_credentials" USING btree ("option_id","account_lookup");--> statement-breakpoint
CREATE INDEX "stock_credentials_option_username_lookup_idx" ON "stock_credentials" USING btree ("option_id","username_lookup");--> statement-breakpoint
CREATE INDEX "stock_credentials_key_idx" ON "stock_credentials" USING btree ("key_id");--> statement-breakpoint
CREATE INDEX "stock_credentials_plain_idx" ON "stock_credentials" USING btree ("id") WHERE "stock_credentials"."secret" is null;--> statement-breakpoint
ALTER TABLE "stock_credentials" ADD CONSTRAINT "stock_credentials_sealed_or_plain" CHECK (("stock_credentials"."secret" is not null and "stock_credentials"."key_id" is not null and "stock_credentials"."account_lookup" is not null and "stock_credentials"."username_lookup" is not null) or ("stock_credentials"."username" is not null and "stock_credentials"."password" is not null)) NOT VALID;
