CREATE TABLE "inbox_claims" (
	"conversation_id" bigint PRIMARY KEY NOT NULL,
	"staff_id" bigint NOT NULL,
	"claimed_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "inbox_claims" ADD CONSTRAINT "inbox_claims_staff_id_staff_users_id_fk" FOREIGN KEY ("staff_id") REFERENCES "public"."staff_users"("id") ON DELETE cascade ON UPDATE no action;