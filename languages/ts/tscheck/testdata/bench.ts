// A typical agent snippet: types, generics, a class, async code.
interface User {
  id: number;
  name: string;
  email?: string;
  tags: string[];
}

type Result<T> = { ok: true; value: T } | { ok: false; error: string };

function parseUser(raw: unknown): Result<User> {
  if (typeof raw !== "object" || raw === null) return { ok: false, error: "not an object" };
  const r = raw as Record<string, unknown>;
  if (typeof r.id !== "number" || typeof r.name !== "string") return { ok: false, error: "bad fields" };
  return { ok: true, value: { id: r.id, name: r.name, tags: Array.isArray(r.tags) ? r.tags.map(String) : [] } };
}

class Registry<K, V extends { id: K }> {
  private items = new Map<K, V>();
  add(item: V): this { this.items.set(item.id, item); return this; }
  get(id: K): V | undefined { return this.items.get(id); }
  get size(): number { return this.items.size; }
}

async function loadAll(raws: unknown[]): Promise<Registry<number, User>> {
  const reg = new Registry<number, User>();
  for (const raw of raws) {
    const res = parseUser(raw);
    if (res.ok) reg.add(res.value);
  }
  return reg;
}

const total: string = loadAll([{ id: 1, name: "a" }]).then((r) => r.size);
export { total };
