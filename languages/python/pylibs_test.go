package python_test

import (
	"encoding/json"
	"testing"

	"github.com/wasmexec/wasmexec"
	"github.com/wasmexec/wasmexec/internal/testkit/testenv"
	"github.com/wasmexec/wasmexec/languages/python"
)

// layerSmoke imports each bundled library and makes one call; the value
// of each entry is what the call returned (compared as JSON).
var layerSmoke = []struct{ name, code, want string }{
	{"sympy", "import sympy\nx = sympy.Symbol('x')\nstr(sympy.integrate(x**2, x))", `"x**3/3"`},
	{"mpmath", "import mpmath\nmpmath.mp.dps = 20\nstr(mpmath.sqrt(2))", `"1.4142135623730950488"`},
	{"networkx", "import networkx as nx\nnx.shortest_path(nx.path_graph(5), 0, 4)", `[0,1,2,3,4]`},
	{"dateutil", "from dateutil import parser, relativedelta\nstr(parser.parse('2024-01-31') + relativedelta.relativedelta(months=1))", `"2024-02-29 00:00:00"`},
	{"pytz", "import pytz, datetime\npytz.timezone('America/New_York').localize(datetime.datetime(2024, 7, 1, 12)).isoformat()", `"2024-07-01T12:00:00-04:00"`},
	{"zoneinfo", "import zoneinfo, datetime\ndatetime.datetime(2024, 7, 1, 12, tzinfo=datetime.timezone.utc).astimezone(zoneinfo.ZoneInfo('Europe/Paris')).isoformat()", `"2024-07-01T14:00:00+02:00"`},
	{"zoneinfo DST", "import zoneinfo, datetime\nny = zoneinfo.ZoneInfo('America/New_York')\n[datetime.datetime(2024, m, 1, 12, tzinfo=ny).utcoffset().total_seconds() / 3600 for m in (1, 7)]", `[-5,-4]`},
	{"zoneinfo fold", "import zoneinfo, datetime\nd = datetime.datetime(2024, 10, 27, 2, 30, fold=1, tzinfo=zoneinfo.ZoneInfo('Europe/Paris'))\nd.astimezone(datetime.timezone.utc).isoformat()", `"2024-10-27T01:30:00+00:00"`},
	{"tzdata", "import zoneinfo\n'Asia/Tokyo' in zoneinfo.available_timezones()", `true`},
	{"six", "import six\nsix.PY3", `true`},
	{"attrs", "import attr\n@attr.s(auto_attribs=True)\nclass P:\n    x: int\nattr.asdict(P(1))", `{"x":1}`},
	{"tabulate", "from tabulate import tabulate\ntabulate([[1, 2]], headers=['a', 'b'], tablefmt='plain')", `"  a    b\n  1    2"`},
	{"bs4", "from bs4 import BeautifulSoup\nBeautifulSoup('<p class=x>hi</p>', 'html.parser').select_one('p.x').text", `"hi"`},
	{"soupsieve", "import soupsieve\nsoupsieve.__version__ != ''", `true`},
	{"html5lib", "import html5lib\nhtml5lib.parse('<p>hi').tag", `"{http://www.w3.org/1999/xhtml}html"`},
	{"openpyxl", "import openpyxl, io\nwb = openpyxl.Workbook(); wb.active['A1'] = 42\nb = io.BytesIO(); wb.save(b); b.seek(0)\nopenpyxl.load_workbook(b).active['A1'].value", `42`},
	{"pypdf", "import pypdf, io\nw = pypdf.PdfWriter(); w.add_blank_page(72, 72)\nb = io.BytesIO(); w.write(b); b.seek(0)\nlen(pypdf.PdfReader(b).pages)", `1`},
	{"jinja2", "import jinja2\njinja2.Template('{{ x | upper }}').render(x='hi')", `"HI"`},
	{"markupsafe", "import markupsafe\nstr(markupsafe.escape('<a>'))", `"&lt;a&gt;"`},
	{"yaml", "import yaml\nyaml.safe_load('a: [1, 2]')", `{"a":[1,2]}`},
	{"packaging", "from packaging.version import Version\nVersion('1.10') > Version('1.9')", `true`},
	{"more_itertools", "import more_itertools\nlist(more_itertools.chunked([1, 2, 3], 2))", `[[1,2],[3]]`},
	{"toolz", "import toolz\ntoolz.frequencies('aab')", `{"a":2,"b":1}`},
	{"requests", "import requests\nrequests.Request('GET', 'https://example.com', params={'q': 1}).prepare().url", `"https://example.com/?q=1"`},
	{"urllib3", "import urllib3\nurllib3.util.parse_url('https://h:1/p').port", `1`},
	{"idna", "import idna\nidna.encode('ドメイン.テスト').decode()", `"xn--eckwd4c7c.xn--zckzah"`},
	{"certifi", "import certifi\nisinstance(certifi.where(), str)", `true`},
	{"charset_normalizer", "import charset_normalizer\ncharset_normalizer.from_bytes('héllo wörld'.encode('utf-8')).best().encoding", `"utf_8"`},
	{"chardet", "import chardet\nchardet.detect(b'hello')['encoding']", `"ascii"`},
	{"typing_extensions", "import typing_extensions\ntyping_extensions.Literal['a'] is not None", `true`},
}

// The bundled layer's smoke test: each library imports and works in the
// guest, from bytecode compiled at build time, and the layer is read-only.
func TestBundledLayer(t *testing.T) {
	testenv.BuiltDir(t, python.LayerImage, "site")
	r := MustRunner(t)
	for _, tc := range layerSmoke {
		res := MustRun(t, r, wasmexec.Request{Code: tc.code})
		if res.Outcome != wasmexec.Succeeded {
			t.Errorf("%s: %s %+v", tc.name, res.Outcome, res.Error)
			continue
		}
		var got, want any
		json.Unmarshal(res.Value, &got)
		json.Unmarshal([]byte(tc.want), &want)
		g, _ := json.Marshal(got)
		w, _ := json.Marshal(want)
		if string(g) != string(w) {
			t.Errorf("%s: %s, want %s", tc.name, res.Value, tc.want)
		}
	}
	res := MustRun(t, r, wasmexec.Request{Code: "import sympy\n[sympy.__file__, type(sympy.__spec__.loader).__name__, sympy.__cached__]"})
	if string(res.Value) != `["/usr/local/lib/python3.11/dist-packages/sympy/__init__.py","SourceFileLoader","/usr/local/lib/python3.11/dist-packages/sympy/__pycache__/__init__.cpython-311.pyc"]` {
		t.Errorf("sympy from: %s %+v", res.Value, res.Error)
	}
	res = MustRun(t, r, wasmexec.Request{Code: "open('/usr/local/lib/python3.11/dist-packages/six.py', 'a').write('x')"})
	if res.Outcome != wasmexec.Failed || res.Error.Name != "PermissionError" {
		t.Errorf("writing the layer: %s %+v", res.Outcome, res.Error)
	}
}
