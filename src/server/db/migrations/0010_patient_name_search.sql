-- The patient list's search, without accents and in any word order (src/domain/search-text.ts):
-- the folded name replaces the lower-cased one.
ALTER TABLE "patients" ADD COLUMN "name_search" text GENERATED ALWAYS AS (lower(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(regexp_replace(normalize(name, NFKD), '[\u0300-\u036f]', '', 'g'), 'ß', 'ss'), 'æ', 'ae'), 'Æ', 'AE'), 'œ', 'oe'), 'Œ', 'OE'), 'ł', 'l'), 'Ł', 'L'), 'ø', 'o'), 'Ø', 'O'), 'đ', 'd'), 'Đ', 'D'), 'ı', 'i'), 'þ', 'th'), 'Þ', 'TH'))) STORED NOT NULL;--> statement-breakpoint
ALTER TABLE "patients" DROP COLUMN "name_lower";
