ALTER TABLE "redeem_keys" ADD COLUMN "code_hint" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "redeem_keys" ADD COLUMN "batch_id" text;--> statement-breakpoint
ALTER TABLE "redeem_keys" ADD COLUMN "redeemed_by_user_id" text;--> statement-breakpoint
ALTER TABLE "redeem_keys" ADD COLUMN "revoked_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "redeem_keys" ADD CONSTRAINT "redeem_keys_redeemed_by_user_id_users_id_fk" FOREIGN KEY ("redeemed_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "redeem_keys_created_idx" ON "redeem_keys" USING btree ("created_at");--> statement-breakpoint
ALTER TABLE "redeem_keys" ADD CONSTRAINT "redeem_keys_used_or_revoked" CHECK ("redeem_keys"."used_at" is null or "redeem_keys"."revoked_at" is null);