ALTER TABLE "messages" ADD COLUMN "gift" text;--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "photo_key" text;--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "photo_width" integer;--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "photo_height" integer;--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "photo_revealed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "messages" ADD CONSTRAINT "messages_gift_check" CHECK (("messages"."kind" = 'gift') = ("messages"."gift" is not null));--> statement-breakpoint
ALTER TABLE "messages" ADD CONSTRAINT "messages_photo_check" CHECK (("messages"."kind" = 'photo') = ("messages"."photo_key" is not null));