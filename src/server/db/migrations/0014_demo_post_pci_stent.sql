-- Post-PCI demo runs now show the stent implanted before them (issue 28). Their frames, previews and
-- contours are stored and cached under the record's imaging version, so the stented frames get a
-- version of their own ('v2-stent', src/server/seed/demo-run.ts): what was generated before under
-- 'v1' is never served beside stented frames or borders read from them. A post-PCI demo seed is one
-- whose floor(seed / 3) is odd (integer division of the non-negative integer column).
UPDATE "records" SET "imaging_version" = 'v2-stent'
WHERE "imaging_source" = 'demo' AND "demo_seed" IS NOT NULL AND "imaging_version" = 'v1' AND ("demo_seed" / 3) % 2 = 1;
