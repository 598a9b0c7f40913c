#!/usr/bin/python3
"""Derive catalog price rows from a Cloud Billing Catalog SKU listing.

Reads the JSON that `services.skus.list` returns
(GET https://cloudbilling.googleapis.com/v1/services/SERVICE_ID/skus; one
file per page, each {"skus": [...], "nextPageToken": ...}) and a price map
that says which SKUs make up each catalog subject, and prints price rows in
the format of catalog/data/70_prices.sql with the derivation in each note.

    /usr/bin/python3 catalog/import_prices.py --map MAP.json \
        --price-date 2026-07-30 --source-id BILLING-2026-07-30 \
        page1.json page2.json > new_prices.sql

The price map (JSON):
    {"region": "us-central1",
     "subjects": [
       {"subject": "n1-standard-8+1xnvidia-tesla-t4", "unit": "usd_per_vm_hour",
        "parts": [
          {"sku": "N1 Predefined Instance Core running in Americas",
           "spot_sku": "Spot Preemptible N1 Predefined Instance Core running in Americas",
           "quantity": 8, "label": "vCPU"}, ...]}]}

A subject's price is the sum over its parts of quantity x unit price (a VM =
vCPUs x core SKU + GB x RAM SKU + GPUs x GPU SKU; a TPU = 1 x chip SKU per
chip-hour). On-demand parts match skus[].description with
category.usageType "OnDemand"; Spot parts match spot_sku with usageType
"Preemptible". The SKU must list the region in serviceRegions. Of a SKU's
pricingInfo[] the newest effectiveTime is used; of its
pricingExpression.tieredRates[] the tier whose startUsageAmount is the
largest not above the part's quantity (a free first tier does not price a
VM at zero). unitPrice is units + nanos / 1e9 per usageUnit, which must be
an hourly unit ("h", "GiBy.h"). A subject missing any on-demand SKU gets no
row (unknown stays unknown); one missing a Spot SKU gets spot NULL.
"""

import argparse
import json
import re
import sys

HOURLY_UNITS = {"h", "GiBy.h"}
DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")


class PriceImportError(Exception):
    """A listing or map that cannot be priced; the message names the item."""


def unit_price(money):
    """USD from a google.type.Money: units (int64, a JSON string) + nanos."""
    units = int(money.get("units", 0) or 0)
    nanos = int(money.get("nanos", 0) or 0)
    if money.get("currencyCode", "USD") != "USD":
        raise PriceImportError("unitPrice in %s, not USD" % money.get("currencyCode"))
    return units + nanos / 1e9


def price_of(sku, quantity):
    """(price per usage unit, tier description) for `quantity` units."""
    infos = sku.get("pricingInfo") or []
    if not infos:
        raise PriceImportError("SKU %r has no pricingInfo" % sku.get("description"))
    info = max(infos, key=lambda i: i.get("effectiveTime", ""))
    expr = info.get("pricingExpression") or {}
    unit = expr.get("usageUnit")
    if unit not in HOURLY_UNITS:
        raise PriceImportError("SKU %r is priced per %r, not per hour"
                           % (sku.get("description"), unit))
    tiers = sorted(expr.get("tieredRates") or [],
                   key=lambda t: float(t.get("startUsageAmount", 0) or 0))
    applicable = [t for t in tiers
                  if float(t.get("startUsageAmount", 0) or 0) <= quantity]
    if not applicable:
        raise PriceImportError("SKU %r has no tier for %s %s"
                           % (sku.get("description"), quantity, unit))
    tier = applicable[-1]
    where = ""
    if len(tiers) > 1:
        where = " (tier from %g of %d)" % (
            float(tier.get("startUsageAmount", 0) or 0), len(tiers))
    return unit_price(tier.get("unitPrice") or {}), unit, where


def find_sku(skus, description, usage_type, region):
    for sku in skus:
        cat = sku.get("category") or {}
        if (sku.get("description") == description
                and cat.get("usageType") == usage_type
                and region in (sku.get("serviceRegions") or [])):
            return sku
    return None


def derive(skus, parts, region, spot):
    """(total, derivation text) or (None, reason) for one provisioning."""
    total = 0.0
    terms = []
    for part in parts:
        description = part.get("spot_sku") if spot else part["sku"]
        if not description:
            return None, "no Spot SKU named for %s" % part["sku"]
        sku = find_sku(skus, description,
                       "Preemptible" if spot else "OnDemand", region)
        if sku is None:
            return None, "SKU %r not in the listing for %s" % (description, region)
        price, unit, tier = price_of(sku, float(part["quantity"]))
        total += float(part["quantity"]) * price
        terms.append("%g %s x $%s/%s [%s]%s" % (
            part["quantity"], part.get("label", "unit"), fmt(price), unit,
            description, tier))
    return total, " + ".join(terms)


def fmt(value):
    """Shortest decimal that round-trips, without exponent noise."""
    text = "%.10f" % value
    return text.rstrip("0").rstrip(".") if "." in text else text


def sql_text(value):
    return "'" + value.replace("'", "''") + "'"


def rows(listing, price_map, price_date):
    """Yield (subject, unit, region, on_demand, spot, note) for priced subjects."""
    skus = listing
    region = price_map["region"]
    for entry in price_map["subjects"]:
        on_demand, od_text = derive(skus, entry["parts"], region, spot=False)
        if on_demand is None:
            print("skipped %s: %s" % (entry["subject"], od_text), file=sys.stderr)
            continue
        spot, spot_text = derive(skus, entry["parts"], region, spot=True)
        note = ("derived from the Cloud Billing Catalog listing of %s: "
                "on-demand %s = $%s" % (price_date, od_text, fmt(round(on_demand, 9))))
        if spot is not None:
            note += "; Spot %s = $%s" % (spot_text, fmt(round(spot, 9)))
        else:
            note += "; Spot unknown (%s)" % spot_text
        yield (entry["subject"], entry["unit"], region, on_demand, spot, note)


def to_sql(priced, price_date, source_id):
    lines = []
    for subject, unit, region, on_demand, spot, note in priced:
        lines.append("  (%s, %s, %s, %s, %s, %s, %s, %s)" % (
            sql_text(subject), sql_text(unit), sql_text(region),
            fmt(round(on_demand, 9)),
            "NULL" if spot is None else fmt(round(spot, 9)),
            sql_text(price_date), sql_text(source_id), sql_text(note)))
    if not lines:
        return ""
    return ("INSERT INTO prices (subject, unit, region, on_demand_usd, spot_usd, "
            "price_date, source_id, note) VALUES\n" + ",\n".join(lines) + ";\n")


def load_listing(paths):
    skus = []
    for path in paths:
        with open(path, encoding="utf-8") as f:
            page = json.load(f)
        if not isinstance(page.get("skus"), list):
            raise PriceImportError("%s has no skus[] list" % path)
        skus.extend(page["skus"])
    return skus


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("listing", nargs="+", help="services.skus.list JSON pages")
    parser.add_argument("--map", required=True, help="price map JSON")
    parser.add_argument("--price-date", required=True,
                        help="YYYY-MM-DD the listing was fetched")
    parser.add_argument("--source-id", required=True,
                        help="sources.id of the listing (add it to 01_sources.sql)")
    args = parser.parse_args(argv)
    if not DATE.match(args.price_date):
        parser.error("--price-date must be YYYY-MM-DD")
    try:
        with open(args.map, encoding="utf-8") as f:
            price_map = json.load(f)
        priced = list(rows(load_listing(args.listing), price_map,
                           args.price_date))
    except (PriceImportError, OSError, ValueError, KeyError) as e:
        print("import_prices: %s" % e, file=sys.stderr)
        return 1
    sys.stdout.write(to_sql(priced, args.price_date, args.source_id))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
