CREATE TABLE "report_day_money" (
	"site_id" integer NOT NULL,
	"day" date NOT NULL,
	"kind" text NOT NULL,
	"currency" text NOT NULL,
	"count" integer NOT NULL,
	"amount_minor" bigint NOT NULL,
	CONSTRAINT "report_day_money_pkey" PRIMARY KEY("day","site_id","kind","currency"),
	CONSTRAINT "report_day_money_kind_check" CHECK ("report_day_money"."kind" in ('revenue', 'refund', 'chargeback'))
);
--> statement-breakpoint
CREATE TABLE "report_days" (
	"site_id" integer NOT NULL,
	"day" date NOT NULL,
	"signups" integer DEFAULT 0 NOT NULL,
	"activations" integer DEFAULT 0 NOT NULL,
	"first_purchases" integer DEFAULT 0 NOT NULL,
	"messages_members" integer DEFAULT 0 NOT NULL,
	"messages_fictional" integer DEFAULT 0 NOT NULL,
	"active_members" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "report_days_pkey" PRIMARY KEY("day","site_id")
);
--> statement-breakpoint
CREATE TABLE "report_rollup" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"computed_from" date NOT NULL,
	"computed_through" date NOT NULL,
	"rebuilt_at" timestamp with time zone NOT NULL,
	"duration_ms" integer NOT NULL,
	CONSTRAINT "report_rollup_one_row" CHECK ("report_rollup"."id" = 1)
);
--> statement-breakpoint
CREATE TABLE "site_visits" (
	"day" date NOT NULL,
	"site_id" integer NOT NULL,
	"lander" text DEFAULT '' NOT NULL,
	"slug" text DEFAULT '' NOT NULL,
	"network" text DEFAULT '' NOT NULL,
	"visits" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "site_visits_pkey" PRIMARY KEY("day","site_id","lander","slug","network")
);
--> statement-breakpoint
ALTER TABLE "report_day_money" ADD CONSTRAINT "report_day_money_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_days" ADD CONSTRAINT "report_days_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "site_visits" ADD CONSTRAINT "site_visits_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE no action ON UPDATE no action;