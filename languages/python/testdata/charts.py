# Ten typical charts, drawn by matplotlib 3.6.3 with the Agg backend. The
# guest's PNGs must match those of Debian bookworm's matplotlib 3.6.3 run
# natively (charts/NAME.png), pixel for pixel or within 1% of the pixels
# (matplotlib_test.go). Regenerate the native ones on Debian with
#   apt-get install python3-matplotlib python3-pandas
#   cd languages/python/testdata && MPLBACKEND=Agg /usr/bin/python3.11 charts.py charts
import base64
import io
import sys

import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np
import pandas as pd


def line():
    fig, ax = plt.subplots(figsize=(4, 3), dpi=80)
    x = np.linspace(0, 2 * np.pi, 200)
    ax.plot(x, np.sin(x), label="sin")
    ax.plot(x, np.cos(x), "--", label="cos")
    ax.set_title("Line")
    ax.legend()
    ax.grid(True)
    return fig


def bar():
    fig, ax = plt.subplots(figsize=(4, 3), dpi=80)
    ax.bar(["Oslo", "Quito", "Nairobi", "Pune"], [12, 30, 21, 17], color=["C0", "C1", "C2", "C3"])
    ax.set_ylabel("units")
    ax.set_title("Bar")
    return fig


def scatter():
    rng = np.random.default_rng(7)
    fig, ax = plt.subplots(figsize=(4, 3), dpi=80)
    x, y = rng.normal(size=150), rng.normal(size=150)
    sc = ax.scatter(x, y, c=x + y, s=20 + 30 * np.abs(y), cmap="viridis", alpha=0.8)
    fig.colorbar(sc, ax=ax)
    ax.set_title("Scatter")
    return fig


def histogram():
    rng = np.random.default_rng(3)
    fig, ax = plt.subplots(figsize=(4, 3), dpi=80)
    ax.hist(rng.normal(10, 2, 1000), bins=30, edgecolor="black")
    ax.set_title("Histogram")
    return fig


def pie():
    fig, ax = plt.subplots(figsize=(4, 3), dpi=80)
    ax.pie([35, 25, 20, 20], labels=["tea", "honey", "jam", "bread"], autopct="%1.1f%%", startangle=90)
    ax.set_title("Pie")
    return fig


def subplots():
    fig, axs = plt.subplots(2, 2, figsize=(5, 4), dpi=80)
    x = np.arange(10)
    axs[0, 0].plot(x, x ** 2)
    axs[0, 1].bar(x, x % 4)
    axs[1, 0].step(x, np.sqrt(x))
    axs[1, 1].fill_between(x, x, x ** 1.5, alpha=0.4)
    fig.suptitle("Subplots")
    fig.tight_layout()
    return fig


def logaxes():
    fig, ax = plt.subplots(figsize=(4, 3), dpi=80)
    x = np.logspace(0, 4, 50)
    ax.loglog(x, x ** 1.5, marker="o", markersize=3)
    ax.set_xlabel("n")
    ax.set_ylabel("time")
    ax.set_title("Log axes")
    return fig


def annotations():
    fig, ax = plt.subplots(figsize=(4, 3), dpi=80)
    x = np.linspace(0, 10, 100)
    ax.plot(x, np.exp(-x / 3) * np.sin(2 * x))
    ax.annotate("peak", xy=(0.75, 0.7), xytext=(3, 0.8), arrowprops=dict(arrowstyle="->"))
    ax.text(6, -0.4, r"$e^{-x/3}\,\sin 2x$", fontsize=12)
    ax.text(0.03, 0.05, "Ünïcödé μ±∞ ≤ 5 °C", fontsize=10, transform=ax.transAxes)
    ax.set_title("Annotations")
    return fig


def image():
    fig, ax = plt.subplots(figsize=(4, 3), dpi=80)
    y, x = np.mgrid[-2:2:60j, -3:3:90j]
    im = ax.imshow(np.sin(x * y) * np.exp(-(x ** 2 + y ** 2) / 4), cmap="magma", origin="lower")
    fig.colorbar(im, ax=ax)
    ax.set_title("Image")
    return fig


def pandas_plot():
    df = pd.DataFrame({"tea": [3, 5, 2, 8, 6], "honey": [1, 4, 6, 3, 7]},
                      index=pd.date_range("2024-01-01", periods=5, freq="D"))
    ax = df.plot(figsize=(4, 3), title="pandas .plot()")
    ax.figure.set_dpi(80)
    return ax.figure


CHARTS = [line, bar, scatter, histogram, pie, subplots, logaxes, annotations, image, pandas_plot]


def render(names=None):
    out = {}
    for f in CHARTS:
        if names is not None and f.__name__ not in names:
            continue
        fig = f()
        b = io.BytesIO()
        fig.savefig(b, format="png", dpi=80, metadata={"Software": None})
        plt.close(fig)
        out[f.__name__] = base64.b64encode(b.getvalue()).decode()
    return out


if __name__ == "__main__" and len(sys.argv) > 1:
    import os
    os.makedirs(sys.argv[1], exist_ok=True)
    for name, data in render().items():
        with open(os.path.join(sys.argv[1], name + ".png"), "wb") as f:
            f.write(base64.b64decode(data))
