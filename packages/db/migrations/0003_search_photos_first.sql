DROP INDEX "profiles_search_idx";--> statement-breakpoint
DROP INDEX "profiles_search_gender_idx";--> statement-breakpoint
DROP INDEX "profiles_search_country_idx";--> statement-breakpoint
DROP INDEX "profiles_search_any_idx";--> statement-breakpoint
ALTER TABLE "profiles" ADD COLUMN "has_photo" boolean GENERATED ALWAYS AS (main_photo_id is not null) STORED NOT NULL;--> statement-breakpoint
CREATE INDEX "profiles_search_idx" ON "profiles" USING btree ("site_id","gender","country","has_photo" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE "profiles"."status" = 'active' and "profiles"."is_invisible" = false;--> statement-breakpoint
CREATE INDEX "profiles_search_gender_idx" ON "profiles" USING btree ("site_id","gender","has_photo" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE "profiles"."status" = 'active' and "profiles"."is_invisible" = false;--> statement-breakpoint
CREATE INDEX "profiles_search_country_idx" ON "profiles" USING btree ("site_id","country","has_photo" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE "profiles"."status" = 'active' and "profiles"."is_invisible" = false;--> statement-breakpoint
CREATE INDEX "profiles_search_any_idx" ON "profiles" USING btree ("site_id","has_photo" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE "profiles"."status" = 'active' and "profiles"."is_invisible" = false;