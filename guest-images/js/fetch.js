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

  class Headers {
    constructor(init) {
      defProp(this, '_list', { value: [], writable: true });
      if (init == null) return;
      if (init instanceof Headers) {
        for (const [k, v] of init._list) this._list.push([k, v]);
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
    append(n, v) { this._list.push([normName(n), normValue(v)]); }
    set(n, v) { n = normName(n); v = normValue(v); this._list = this._list.filter(e => e[0] !== n); this._list.push([n, v]); }
    delete(n) { n = normName(n); this._list = this._list.filter(e => e[0] !== n); }
    has(n) { n = normName(n); return this._list.some(e => e[0] === n); }
    get(n) {
      n = normName(n);
      const vs = this._list.filter(e => e[0] === n).map(e => e[1]);
      return vs.length ? vs.join(', ') : null;
    }
    getSetCookie() { return this._list.filter(e => e[0] === 'set-cookie').map(e => e[1]); }
    *entries() {
      const names = [...new Set(this._list.map(e => e[0]))].sort();
      for (const n of names) yield [n, this.get(n)];
    }
    *keys() { for (const [k] of this.entries()) yield k; }
    *values() { for (const [, v] of this.entries()) yield v; }
    forEach(fn, self) { for (const [k, v] of this.entries()) fn.call(self, v, k, this); }
    [Symbol.iterator]() { return this.entries(); }
  }

  function toBody(body) {
    if (body == null) return null;
    if (typeof body === 'string' || body instanceof AB || isView(body)) return body;
    return String(body);
  }

  class Response {
    constructor(body, init) {
      init = init || {};
      const status = init.status === undefined ? 200 : init.status | 0;
      if (status < 200 || status > 599) throw new RangeError('Response status must be 200-599');
      defProp(this, '_body', { value: toBody(body), writable: true });
      defProp(this, '_used', { value: false, writable: true });
      this.status = status;
      this.statusText = init.statusText === undefined ? '' : String(init.statusText);
      this.headers = init.headers instanceof Headers ? init.headers : new Headers(init.headers);
      this.url = init.url || '';
      this.redirected = !!init.redirected;
      this.type = 'basic';
      this.body = null;
    }
    get ok() { return this.status >= 200 && this.status < 300; }
    get bodyUsed() { return this._used; }
    _take() {
      if (this._used) return P.reject(new TE('Body has already been consumed.'));
      this._used = true;
      return P.resolve(this._body);
    }
    text() { return this._take().then(b => b == null ? '' : native.text(b)); }
    json() { return this.text().then(t => parse(t)); }
    arrayBuffer() { return this._take().then(b => b == null ? new AB(0) : native.bytes(b)); }
    bytes() { return this.arrayBuffer().then(b => new Uint8Array(b)); }
    clone() {
      if (this._used) throw new TE('Body has already been consumed.');
      return new Response(this._body, { status: this.status, statusText: this.statusText, headers: new Headers(this.headers), url: this.url, redirected: this.redirected });
    }
    static json(data, init) {
      const h = new Headers(init && init.headers);
      if (!h.has('content-type')) h.set('content-type', 'application/json');
      return new Response(JSON.stringify(data), Object.assign({}, init, { headers: h }));
    }
  }

  function fetch(input, init) {
    return new P((resolve, reject) => {
      let method, url, headers, body, redirect;
      try {
        init = init || {};
        url = String(input !== null && typeof input === 'object' && 'url' in input ? input.url : input);
        method = init.method === undefined ? 'GET' : String(init.method);
        if (/^(get|head|post|put|delete|options|patch)$/i.test(method)) method = method.toUpperCase();
        headers = new Headers(init.headers);
        body = toBody(init.body);
        if (body != null && (method === 'GET' || method === 'HEAD')) throw new TE('Request with GET/HEAD method cannot have body.');
        if (typeof body === 'string' && !headers.has('content-type')) headers.set('content-type', 'text/plain;charset=UTF-8');
        redirect = init.redirect === undefined ? 'follow' : String(init.redirect);
        if (redirect !== 'follow' && redirect !== 'manual' && redirect !== 'error') throw new TE('redirect must be follow, manual or error');
        if (init.signal && init.signal.aborted) throw init.signal.reason || new TE('The operation was aborted.');
      } catch (e) {
        reject(e);
        return;
      }
      native.defer(() => {
        let r;
        try {
          r = native.request(method, url, headers._list, body, redirect);
        } catch (e) {
          reject(e);
          return;
        }
        const h = new Headers();
        for (const [k, v] of r.headers) h._list.push([k, v]);
        const res = new Response(null, { status: 200, statusText: r.statusText, headers: h, url: r.url, redirected: r.redirected });
        res.status = r.status; // 1xx-5xx as the server said (3xx with redirect: manual)
        res._body = r.body;
        resolve(res);
      });
    });
  }

  for (const [name, v] of [['fetch', fetch], ['Response', Response], ['Headers', Headers]]) {
    defProp(g, name, { value: v, writable: true, configurable: true, enumerable: false });
  }
})
