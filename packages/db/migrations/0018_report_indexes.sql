CREATE INDEX "users_signup_date_idx" ON "users" USING btree ("signup_date","site_id");--> statement-breakpoint
CREATE INDEX "users_confirmed_at_idx" ON "users" USING btree ("confirmed_at","site_id") WHERE "users"."confirmed_at" is not null;--> statement-breakpoint
CREATE INDEX "messages_created_idx" ON "messages" USING btree ("created_at","sender_profile_id");--> statement-breakpoint
CREATE INDEX "payment_events_created_idx" ON "payment_events" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "payment_orders_paid_at_idx" ON "payment_orders" USING btree ("paid_at","site_id") WHERE "payment_orders"."paid_at" is not null;--> statement-breakpoint
CREATE INDEX "payment_orders_user_paid_idx" ON "payment_orders" USING btree ("user_id","paid_at") WHERE "payment_orders"."paid_at" is not null;--> statement-breakpoint
CREATE INDEX "payment_orders_charged_back_idx" ON "payment_orders" USING btree ("charged_back_at") WHERE "payment_orders"."charged_back_at" is not null;--> statement-breakpoint
CREATE INDEX "likes_created_idx" ON "likes" USING btree ("created_at","liker_profile_id");