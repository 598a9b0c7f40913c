#!/usr/bin/python3
"""catalog/import_prices.py on the sample listing in testdata/.

The derived rows must equal the rows of catalog/data/70_prices.sql for the
same subjects: a GPU VM built from core + RAM + GPU SKUs with Spot SKUs,
and a TPU chip SKU with a tiered rate.
"""

import json
import os
import re
import subprocess
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "catalog"))
import import_prices  # noqa: E402

LISTING = os.path.join(HERE, "testdata", "skus_sample.json")
PRICE_MAP = os.path.join(HERE, "testdata", "price_map_sample.json")
PRICES_SQL = os.path.join(ROOT, "catalog", "data", "70_prices.sql")

ROW = re.compile(r"\('([^']+)', '(usd_per_\w+)', '([\w-]+)', ([\d.e]+|NULL), "
                 r"([\d.e]+|NULL), '(\d{4}-\d{2}-\d{2})'")


def catalog_rows():
    with open(PRICES_SQL, encoding="utf-8") as f:
        text = f.read()
    out = {}
    for subject, unit, region, od, spot, _ in ROW.findall(text):
        out[(subject, region)] = (unit, float(od) if od != "NULL" else None,
                                  float(spot) if spot != "NULL" else None)
    return out


def derive():
    with open(PRICE_MAP, encoding="utf-8") as f:
        price_map = json.load(f)
    skus = import_prices.load_listing([LISTING])
    return {(r[0], r[2]): r for r in import_prices.rows(skus, price_map, "2026-07-30")}


class ImportPricesTest(unittest.TestCase):
    def test_rows_equal_the_catalog_rows(self):
        expected = catalog_rows()
        derived = derive()
        for key in [("n1-standard-8+1xnvidia-tesla-t4", "us-central1"),
                    ("tpu-v5e", "us-central1")]:
            self.assertIn(key, expected, "70_prices.sql lost %s" % (key,))
            self.assertIn(key, derived)
            unit, od, spot = expected[key]
            _, d_unit, _, d_od, d_spot, note = derived[key]
            self.assertEqual(d_unit, unit)
            self.assertAlmostEqual(d_od, od, places=9)
            self.assertAlmostEqual(d_spot, spot, places=9)
            self.assertIn("derived from the Cloud Billing Catalog listing", note)

    def test_vm_note_shows_cores_ram_and_gpu(self):
        note = derive()[("n1-standard-8+1xnvidia-tesla-t4", "us-central1")][5]
        self.assertIn("8 vCPU x $0.031611/h", note)  # newest pricingInfo, not 0.03
        self.assertIn("30 GB x $0.004237/GiBy.h", note)
        self.assertIn("1 GPU x $0.35/h", note)
        self.assertIn("Spot 8 vCPU x $0.0100025/h", note)

    def test_tier_follows_the_quantity(self):
        sku = next(s for s in import_prices.load_listing([LISTING])
                   if s["skuId"] == "SAMPLE-0101")
        self.assertEqual(import_prices.price_of(sku, 1)[0], 1.2)
        self.assertAlmostEqual(import_prices.price_of(sku, 2048)[0], 1.08)
        self.assertIn("tier from 0 of 2", derive()[("tpu-v5e", "us-central1")][5])

    def test_missing_sku_leaves_the_subject_unpriced(self):
        # The V100 SKU is listed for us-west1 only.
        self.assertNotIn(("n1-standard-8+1xnvidia-tesla-v100", "us-central1"), derive())

    def test_non_hourly_unit_is_refused(self):
        sku = {"description": "Storage", "pricingInfo": [{"pricingExpression": {
            "usageUnit": "GiBy.mo", "tieredRates": [
                {"startUsageAmount": 0, "unitPrice": {"units": "0", "nanos": 40000000}}]}}]}
        with self.assertRaises(import_prices.PriceImportError):
            import_prices.price_of(sku, 1)

    def test_cli_writes_loadable_sql(self):
        out = subprocess.run(
            [sys.executable, os.path.join(ROOT, "catalog", "import_prices.py"),
             "--map", PRICE_MAP, "--price-date", "2026-07-30", "--source-id",
             "SAMPLE", LISTING], capture_output=True, text=True, check=True)
        self.assertTrue(out.stdout.startswith("INSERT INTO prices ("))
        self.assertIn("'tpu-v5e', 'usd_per_chip_hour', 'us-central1', 1.2, 0.24493,",
                      out.stdout)
        self.assertIn("skipped n1-standard-8+1xnvidia-tesla-v100", out.stderr)
        import sqlite3
        db = sqlite3.connect(":memory:")
        with open(os.path.join(ROOT, "catalog", "schema.sql"), encoding="utf-8") as f:
            db.executescript(f.read().replace("PRAGMA foreign_keys = ON;", ""))
        db.executescript(out.stdout)
        self.assertEqual(db.execute("SELECT count(*) FROM prices").fetchone()[0], 2)


if __name__ == "__main__":
    unittest.main()
