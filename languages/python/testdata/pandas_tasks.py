# Typical agent tasks with pandas, on files in the workspace: the guest must
# give what Debian bookworm's pandas 1.5.3 gives natively
# (pandas_tasks.native.json, made with /usr/bin/python3.11 on Debian with
# python3-pandas python3-openpyxl python3-tabulate: see pandas_test.go).
import pandas as pd, numpy as np, io, json
csv = "date,city,product,units,price\n" + "\n".join(
    f"2024-01-{d:02d},{c},{p},{(d*7+len(c)*3+len(p))%11+1},{(d%5)+1.5}"
    for d in range(1, 29) for c in ("Oslo", "Quito", "Nairobi") for p in ("tea", "honey"))
open("sales.csv", "w").write(csv)
df = pd.read_csv("sales.csv", parse_dates=["date"])
df["revenue"] = df.units * df.price
out = {}
out["shape"] = list(df.shape)
out["groupby"] = df.groupby("city").revenue.sum().round(2).to_dict()
pv = df.pivot_table(index="city", columns="product", values="units", aggfunc="sum")
out["pivot"] = pv.to_dict()
prices = pd.DataFrame({"product": ["tea", "honey"], "vat": [0.1, 0.2]})
m = df.merge(prices, on="product")
out["merge"] = round(float((m.revenue * m.vat).sum()), 4)
w = df.set_index("date").revenue.resample("W").sum()
out["resample"] = [round(float(x), 2) for x in w.values]
out["rolling"] = [round(float(x), 4) for x in df.groupby("date").units.sum().rolling(3).mean().dropna().values[:5]]
out["to_datetime"] = str(pd.to_datetime("2024-03-10 12:30", utc=True).tz_convert("Europe/Oslo"))
out["describe"] = df.units.describe().round(4).to_dict()
out["markdown"] = pv.to_markdown()
out["string"] = pv.to_string()
df.head(10).to_excel("sales.xlsx", index=False)
back = pd.read_excel("sales.xlsx")
out["excel"] = [list(back.shape), int(back.units.sum()), str(back.date.dtype)]
out["json"] = json.loads(df.head(2).to_json(orient="records", date_format="iso"))
json.dumps(out, sort_keys=True)
