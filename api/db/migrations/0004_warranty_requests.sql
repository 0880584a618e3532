ALTER TABLE "delivered_credentials" ADD COLUMN "replacement_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "auto_replace" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "replacement_limit" integer DEFAULT 3 NOT NULL;--> statement-breakpoint
ALTER TABLE "requests" ADD COLUMN "delivered_credential_id" text;--> statement-breakpoint
ALTER TABLE "requests" ADD COLUMN "answer" text;--> statement-breakpoint
ALTER TABLE "requests" ADD COLUMN "resolved_by" text;--> statement-breakpoint
ALTER TABLE "requests" ADD CONSTRAINT "requests_delivered_credential_id_delivered_credentials_id_fk" FOREIGN KEY ("delivered_credential_id") REFERENCES "public"."delivered_credentials"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "requests" ADD CONSTRAINT "requests_resolved_by_users_id_fk" FOREIGN KEY ("resolved_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "requests_status_created_idx" ON "requests" USING btree ("status","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "requests_open_replacement_key" ON "requests" USING btree ("delivered_credential_id") WHERE "requests"."status" = 'pending';--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_replacement_limit_not_negative" CHECK ("products"."replacement_limit" >= 0);--> statement-breakpoint
ALTER TABLE "requests" ADD CONSTRAINT "requests_replacement_has_credential" CHECK ("requests"."kind" <> 'replacement' or "requests"."delivered_credential_id" is not null);