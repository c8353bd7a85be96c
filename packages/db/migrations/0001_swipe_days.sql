CREATE TABLE "swipe_days" (
	"profile_id" bigint NOT NULL,
	"day" date NOT NULL,
	"likes_granted" integer NOT NULL,
	CONSTRAINT "swipe_days_profile_id_day_pk" PRIMARY KEY("profile_id","day"),
	CONSTRAINT "swipe_days_likes_check" CHECK ("swipe_days"."likes_granted" > 0)
);
--> statement-breakpoint
DROP INDEX "likes_swipe_day_idx";--> statement-breakpoint
ALTER TABLE "swipe_days" ADD CONSTRAINT "swipe_days_profile_id_profiles_id_fk" FOREIGN KEY ("profile_id") REFERENCES "public"."profiles"("id") ON DELETE cascade ON UPDATE no action;