ALTER TABLE "spin_accounts" DROP CONSTRAINT "spin_accounts_spins_range";--> statement-breakpoint
ALTER TABLE "spins" DROP CONSTRAINT "spins_coupon_id_coupons_id_fk";
--> statement-breakpoint
ALTER TABLE "spins" ALTER COLUMN "coupon_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "spin_accounts" ADD COLUMN "counted_from" date NOT NULL;--> statement-breakpoint
ALTER TABLE "spins" ADD COLUMN "stops" integer[] NOT NULL;--> statement-breakpoint
ALTER TABLE "spins" ADD CONSTRAINT "spins_coupon_id_coupons_id_fk" FOREIGN KEY ("coupon_id") REFERENCES "public"."coupons"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "spin_accounts" DROP COLUMN "spins_available";--> statement-breakpoint
ALTER TABLE "spin_accounts" DROP COLUMN "last_granted_on";--> statement-breakpoint
ALTER TABLE "spins" DROP COLUMN "reels";