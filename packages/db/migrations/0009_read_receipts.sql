ALTER TABLE "users" ADD COLUMN "read_receipts" boolean DEFAULT true NOT NULL;--> statement-breakpoint
UPDATE "users" SET "read_receipts" = false, "notifications_disabled" = "notifications_disabled" - 'read_receipts' WHERE "notifications_disabled" ? 'read_receipts';
