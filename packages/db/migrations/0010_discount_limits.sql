-- Codes and delete discounts made before the limit: 100 % or more becomes 99 %, 0 % or less an expired 1 % code.
UPDATE "discount_codes" SET "value_percentage" = 99 WHERE "value_percentage" > 99;--> statement-breakpoint
UPDATE "discount_codes" SET "value_percentage" = 1, "status" = 'expired' WHERE "value_percentage" < 1;--> statement-breakpoint
UPDATE "sites" SET "delete_discount" = LEAST(GREATEST("delete_discount", 0), 99) WHERE "delete_discount" NOT BETWEEN 0 AND 99;--> statement-breakpoint
ALTER TABLE "discount_codes" ADD CONSTRAINT "discount_codes_value_percentage_check" CHECK ("discount_codes"."value_percentage" between 1 and 99);--> statement-breakpoint
ALTER TABLE "sites" ADD CONSTRAINT "sites_delete_discount_check" CHECK ("sites"."delete_discount" between 0 and 99);