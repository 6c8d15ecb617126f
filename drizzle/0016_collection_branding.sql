CREATE TABLE "collection_brandings" (
	"business_id" uuid NOT NULL,
	"environment" "environment" NOT NULL,
	"display_name" text,
	"brand_color" text,
	"logo_media_type" text,
	"logo_base64" text,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "collection_brandings_logo_pair" CHECK (("collection_brandings"."logo_media_type" is null) = ("collection_brandings"."logo_base64" is null))
);
--> statement-breakpoint
ALTER TABLE "collection_brandings" ADD CONSTRAINT "collection_brandings_business_id_businesses_id_fk" FOREIGN KEY ("business_id") REFERENCES "public"."businesses"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "collection_brandings_tenant_idx" ON "collection_brandings" USING btree ("business_id","environment");