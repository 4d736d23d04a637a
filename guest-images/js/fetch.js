// fetch, Response and Headers: the WHATWG shapes over the host's fetch
// (fetch.go). Called once at start-up with the global object and the
// native helpers; it keeps its own references to the built-ins it uses.
(function (g, native) {
  'use strict';
  const P = Promise, TE = TypeError, AB = ArrayBuffer, isView = ArrayBuffer.isView;
  const parse = JSON.parse, defProp = Object.defineProperty;
  const NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

  function normName(n) {
    n = String(n);
    if (!NAME.test(n)) throw new TE('Invalid header name: ' + n);
    return n.toLowerCase();
  }
  function normValue(v) {
    v = String(v).replace(/^[\t\n\r ]+|[\t\n\r ]+$/g, '');
    if (/[\r\n\0]/.test(v)) throw new TE('Invalid header value');
    return v;
  }

  // A Headers' list of [lower-case name, value], read by fetch and Response.
  let listOf;

  class Headers {
    #list = [];
    static {
      listOf = (h) => h.#list;
    }
    constructor(init) {
      if (init == null) return;
      if (init instanceof Headers) {
        for (const [k, v] of init.#list) this.#list.push([k, v]);
      } else if (typeof init === 'object' && typeof init[Symbol.iterator] === 'function') {
        for (const pair of init) {
          const p = Array.from(pair);
          if (p.length !== 2) throw new TE('Header pairs must have a name and a value');
          this.append(p[0], p[1]);
        }
      } else if (typeof init === 'object') {
        for (const k of Object.keys(init)) this.append(k, init[k]);
      } else {
        throw new TE('Headers: init must be an object, an array of pairs or Headers');
      }
    }
    append(n, v) { this.#list.push([normName(n), normValue(v)]); }
    set(n, v) { n = normName(n); v = normValue(v); this.#list = this.#list.filter(e => e[0] !== n); this.#list.push([n, v]); }
    delete(n) { n = normName(n); this.#list = this.#list.filter(e => e[0] !== n); }
    has(n) { n = normName(n); return this.#list.some(e => e[0] === n); }
    get(n) {
      n = normName(n);
      const vs = this.#list.filter(e => e[0] === n).map(e => e[1]);
      return vs.length ? vs.join(', ') : null;
    }
    getSetCookie() { return this.#list.filter(e => e[0] === 'set-cookie').map(e => e[1]); }
    *entries() {
      const names = [...new Set(this.#list.map(e => e[0]))].sort();
      for (const n of names) yield [n, this.get(n)];
    }
    *keys() { for (const [k] of this.entries()) yield k; }
    *values() { for (const [, v] of this.entries()) yield v; }
    forEach(fn, self) { for (const [k, v] of this.entries()) fn.call(self, v, k, this); }
    [Symbol.iterator]() { return this.entries(); }
  }

  const tagOf = Object.prototype.toString;
  function isBlob(b) {
    const t = tagOf.call(b);
    return t === '[object Blob]' || t === '[object File]';
  }

  function toBody(body) {
    if (body == null) return null;
    if (typeof body === 'string' || body instanceof AB || isView(body)) return body;
    if (isBlob(body)) return native.blobBytes(body);
    if (tagOf.call(body) === '[object URLSearchParams]') return String(body);
    return String(body);
  }

  // contentType is the type a body implies, or null.
  function contentType(body) {
    if (typeof body === 'string') return 'text/plain;charset=UTF-8';
    if (body != null && typeof body === 'object') {
      if (isBlob(body)) return body.type || null;
      if (tagOf.call(body) === '[object URLSearchParams]') return 'application/x-www-form-urlencoded;charset=UTF-8';
    }
    return null;
  }

  let fromHost;

  class Response {
    #body = null;
    #used = false;
    // The request's signal: once it aborts, the body can't be read.
    #signal = null;
    static {
      // A response as the host returned it (any status, its headers as is).
      fromHost = (r, signal) => {
        const res = new Response(null, { statusText: r.statusText, url: r.url, redirected: r.redirected });
        res.status = r.status;
        listOf(res.headers).push(...r.headers);
        res.#body = r.body;
        res.#signal = signal || null;
        return res;
      };
    }
    constructor(body, init) {
      init = init || {};
      const status = init.status === undefined ? 200 : init.status | 0;
      if (status < 200 || status > 599) throw new RangeError('Response status must be 200-599');
      this.#body = toBody(body);
      const ct = contentType(body);
      this.status = status;
      this.statusText = init.statusText === undefined ? '' : String(init.statusText);
      this.headers = init.headers instanceof Headers ? init.headers : new Headers(init.headers);
      if (ct !== null && !this.headers.has('content-type')) this.headers.set('content-type', ct);
      this.url = init.url || '';
      this.redirected = !!init.redirected;
      this.type = 'basic';
      this.body = null;
    }
    get ok() { return this.status >= 200 && this.status < 300; }
    get bodyUsed() { return this.#used; }
    #take() {
      if (this.#signal && this.#signal.aborted) return P.reject(this.#signal.reason);
      if (this.#used) return P.reject(new TE('Body has already been consumed.'));
      this.#used = true;
      return P.resolve(this.#body);
    }
    text() { return this.#take().then(b => b == null ? '' : native.text(b)); }
    json() { return this.text().then(t => parse(t)); }
    arrayBuffer() { return this.#take().then(b => b == null ? new AB(0) : native.bytes(b)); }
    bytes() { return this.arrayBuffer().then(b => new Uint8Array(b)); }
    blob() { return this.arrayBuffer().then(b => new g.Blob([b], { type: this.headers.get('content-type') || '' })); }
    clone() {
      if (this.#used) throw new TE('Body has already been consumed.');
      const c = new Response(this.#body, { status: this.status, statusText: this.statusText, headers: new Headers(this.headers), url: this.url, redirected: this.redirected });
      c.#signal = this.#signal;
      return c;
    }
    static json(data, init) {
      const h = new Headers(init && init.headers);
      if (!h.has('content-type')) h.set('content-type', 'application/json');
      return new Response(JSON.stringify(data), Object.assign({}, init, { headers: h }));
    }
  }

  // fetch's request is made by a task of the event loop: an abort before
  // it runs rejects the fetch with the signal's reason and the request is
  // never made. Once made, the host call blocks until the response: an
  // abort can then only make the body unreadable.
  function fetch(input, init) {
    return new P((resolve, reject) => {
      let method, url, headers, body, redirect, signal;
      try {
        init = init || {};
        url = String(input !== null && typeof input === 'object' && 'url' in input ? input.url : input);
        method = init.method === undefined ? 'GET' : String(init.method);
        if (/^(get|head|post|put|delete|options|patch)$/i.test(method)) method = method.toUpperCase();
        headers = new Headers(init.headers);
        body = toBody(init.body);
        if (body != null && (method === 'GET' || method === 'HEAD')) throw new TE('Request with GET/HEAD method cannot have body.');
        const ct = contentType(init.body);
        if (ct !== null && !headers.has('content-type')) headers.set('content-type', ct);
        redirect = init.redirect === undefined ? 'follow' : String(init.redirect);
        if (redirect !== 'follow' && redirect !== 'manual' && redirect !== 'error') throw new TE('redirect must be follow, manual or error');
        signal = init.signal == null ? null : init.signal;
        if (signal !== null && (typeof signal !== 'object' || !('aborted' in signal))) throw new TE('Failed to construct \'Request\': member signal is not of type AbortSignal.');
        if (signal && signal.aborted) throw signal.reason;
      } catch (e) {
        reject(e);
        return;
      }
      let onAbort = null;
      if (signal && typeof signal.addEventListener === 'function') {
        onAbort = () => reject(signal.reason);
        signal.addEventListener('abort', onAbort, { once: true });
      }
      native.defer(() => {
        if (onAbort) signal.removeEventListener('abort', onAbort);
        if (signal && signal.aborted) {
          reject(signal.reason);
          return;
        }
        let r;
        try {
          r = native.request(method, url, listOf(headers), body, redirect);
        } catch (e) {
          reject(e);
          return;
        }
        resolve(fromHost(r, signal));
      });
    });
  }

  for (const [name, v] of [['fetch', fetch], ['Response', Response], ['Headers', Headers]]) {
    defProp(g, name, { value: v, writable: true, configurable: true, enumerable: false });
  }
})
