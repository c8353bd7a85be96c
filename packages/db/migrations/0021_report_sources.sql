CREATE TABLE "report_day_sources" (
	"site_id" integer NOT NULL,
	"day" date NOT NULL,
	"lander" text NOT NULL,
	"slug" text NOT NULL,
	"network" text NOT NULL,
	"signups" integer DEFAULT 0 NOT NULL,
	"activations" integer DEFAULT 0 NOT NULL,
	"first_purchases" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "report_day_sources_pkey" PRIMARY KEY("day","site_id","lander","slug","network")
);
--> statement-breakpoint
ALTER TABLE "report_day_sources" ADD CONSTRAINT "report_day_sources_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE no action ON UPDATE no action;