package server_test

import (
	"testing"
	"time"

	"github.com/wasmexec/wasmexec/internal/testkit/poll"
)

// waitTemplate polls a template until its build ends and returns its
// descriptor.
func waitTemplate(t *testing.T, url, key, id string) map[string]any {
	t.Helper()
	var d map[string]any
	poll.Until(t, 60*time.Second, "the build of "+id, func() bool {
		r := as(t, key, "GET", url+"/v1/templates/"+id, "")
		wantStatus(t, r, 200, "")
		d = r.JSON
		return d["state"] != "building"
	})
	return d
}

// The template routes: create (202, building), get, list, run from it,
// a context from it, delete.
func TestTemplateRoutes(t *testing.T) {
	url := mustFrontServer(t, false, nil)
	r := as(t, "", "POST", url+"/v1/templates", `{"templateId":"warm","language":"javascript","setupCode":"globalThis.w = 6","files":{"a.txt":"7"}}`)
	wantStatus(t, r, 202, "")
	if r.JSON["state"] != "building" && r.JSON["state"] != "ready" {
		t.Fatalf("created: %s", r.Body)
	}
	if d := waitTemplate(t, url, "", "warm"); d["state"] != "ready" || d["buildExecutionId"] == nil {
		t.Fatalf("built: %v", d)
	}
	r = as(t, "", "POST", url+"/v1/evaluate", `{"language":"javascript","template":"warm","code":"w * Number(fs.readFileSync('a.txt', 'utf8'))"}`)
	wantStatus(t, r, 200, "")
	if r.JSON["value"] != float64(42) {
		t.Fatalf("run: %s", r.Body)
	}
	wantStatus(t, as(t, "", "POST", url+"/v1/contexts", `{"contextId":"fromwarm","template":"warm"}`), 201, "")
	r = as(t, "", "POST", url+"/v1/evaluate", `{"language":"javascript","contextId":"fromwarm","code":"w"}`)
	if r.JSON["value"] != float64(6) {
		t.Fatalf("context run: %s", r.Body)
	}
	r = as(t, "", "GET", url+"/v1/templates", "")
	if list, _ := r.JSON["templates"].([]any); len(list) != 1 {
		t.Fatalf("list: %s", r.Body)
	}
	for _, tc := range []struct {
		name, method, path, body string
		status                   int
		code                     string
	}{
		{"duplicate id", "POST", "/v1/templates", `{"templateId":"warm","language":"javascript"}`, 409, "template_conflict"},
		{"bad id", "POST", "/v1/templates", `{"templateId":"a/b","language":"javascript"}`, 400, "invalid_argument"},
		{"no language", "POST", "/v1/templates", `{}`, 400, "invalid_argument"},
		{"unknown field", "POST", "/v1/templates", `{"language":"javascript","setup":"x"}`, 400, "invalid_argument"},
		{"unknown template", "GET", "/v1/templates/nope", "", 404, "template_not_found"},
		{"run from an unknown template", "POST", "/v1/evaluate", `{"language":"javascript","template":"nope","code":"1"}`, 404, "template_not_found"},
		{"template and contextId", "POST", "/v1/evaluate", `{"language":"javascript","template":"warm","contextId":"fromwarm","code":"1"}`, 400, "invalid_argument"},
		{"another memory limit", "POST", "/v1/evaluate", `{"language":"javascript","template":"warm","code":"1","limits":{"memoryBytes":67108864}}`, 400, "invalid_argument"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			wantStatus(t, as(t, "", tc.method, url+tc.path, tc.body), tc.status, tc.code)
		})
	}
	wantStatus(t, as(t, "", "DELETE", url+"/v1/templates/warm", ""), 204, "")
	wantStatus(t, as(t, "", "GET", url+"/v1/templates/warm", ""), 404, "template_not_found")
}

// A template belongs to its tenant: every other tenant's call about it
// answers as for an unknown id (404), and its quotas bound what it makes.
func TestTemplateTenancy(t *testing.T) {
	url := mustTenantServer(t)
	r := as(t, acme, "POST", url+"/v1/templates", `{"templateId":"acmes","language":"javascript","setupCode":"globalThis.secret = 'acme'"}`)
	wantStatus(t, r, 202, "")
	if d := waitTemplate(t, url, acme, "acmes"); d["state"] != "ready" {
		t.Fatalf("built: %v", d)
	}
	unknown := as(t, globex, "GET", url+"/v1/templates/never-made", "")
	for _, tc := range []struct{ name, method, path, body string }{
		{"get", "GET", "/v1/templates/acmes", ""},
		{"delete", "DELETE", "/v1/templates/acmes", ""},
		{"evaluate from it", "POST", "/v1/evaluate", `{"language":"javascript","template":"acmes","code":"secret"}`},
		{"a context from it", "POST", "/v1/contexts", `{"template":"acmes"}`},
		{"a process from it", "POST", "/v1/processes", `{"language":"javascript","template":"acmes","code":"console.log(secret)"}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := as(t, globex, tc.method, url+tc.path, tc.body)
			wantStatus(t, r, 404, "template_not_found")
			if tc.method == "GET" && (r.JSON["message"] != `no template "acmes"` || unknown.JSON["message"] != `no template "never-made"`) {
				t.Fatalf("message %v (unknown: %v)", r.JSON["message"], unknown.JSON["message"])
			}
		})
	}
	if list := as(t, globex, "GET", url+"/v1/templates", "").JSON["templates"].([]any); len(list) != 0 {
		t.Fatalf("globex lists %v", list)
	}
	// acme may have one template: a second is refused.
	wantStatus(t, as(t, acme, "POST", url+"/v1/templates", `{"language":"javascript"}`), 429, "quota_exceeded")
	// initech's templates may hold 1000 bytes: a build ends failed.
	r = as(t, initech, "POST", url+"/v1/templates", `{"templateId":"toobig","language":"javascript"}`)
	wantStatus(t, r, 202, "")
	d := waitTemplate(t, url, initech, "toobig")
	if e, _ := d["error"].(map[string]any); d["state"] != "failed" || e["code"] != "quota_exceeded" {
		t.Fatalf("initech's build: %v", d)
	}
	// zero may have none.
	wantStatus(t, as(t, zero, "POST", url+"/v1/templates", `{"language":"javascript"}`), 429, "quota_exceeded")
}
