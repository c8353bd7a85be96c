CREATE TABLE "member_reminders" (
	"user_id" bigint NOT NULL,
	"kind" text NOT NULL,
	"sent_at" timestamp with time zone NOT NULL,
	"count" integer DEFAULT 1 NOT NULL,
	CONSTRAINT "member_reminders_user_id_kind_pk" PRIMARY KEY("user_id","kind"),
	CONSTRAINT "member_reminders_kind_check" CHECK ("member_reminders"."kind" in ('confirm_address', 'complete_profile', 'weekly_update'))
);
--> statement-breakpoint
ALTER TABLE "member_reminders" ADD CONSTRAINT "member_reminders_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;