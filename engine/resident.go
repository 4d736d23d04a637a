package engine

// Resident says what the guest's linear memory costs the host now, in
// bytes of resident pages: total counts every page mapped in (what the
// process's RSS counts for it), private those that are the guest's alone:
// pages it wrote (copied on write from the image, or fresh zero pages)
// and those of a state mapped from its file. The difference is pages of
// the image's snapshot the guest has only read: the page cache holds
// them once for every guest of the image, but each guest that read one
// maps it, and RSS counts it for each. Address space reserved or grown
// but never touched is not counted: a guest whose memory grew to 256 MiB
// and that uses 3 of them costs 3. Memory the host keeps for the guest
// outside its linear memory (its store, tables, the thread parked in
// recv) is not in it; an owner that budgets memory adds an overhead.
//
// It reads the guest's page table entries (/proc/self/pagemap on Linux,
// 8 bytes per 4 KiB page); elsewhere both are the memory's size. It must
// not be called during a Call of the same guest (it waits for the call).
// Zeros once the guest is closed.
func (g *Guest) Resident() (total, private int64) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.storeFreed || g.mem == nil {
		return 0, 0
	}
	mem := g.mem.UnsafeData(g.store)
	t, p, err := residentPages(mem, g.mappedFrom)
	if err != nil {
		return int64(len(mem)), int64(len(mem))
	}
	return t * pageSize, p * pageSize
}

// Trim drops the guest's mappings of pages of the image's snapshot it has
// only read (never written): they stay in the page cache, shared, and the
// guest maps them again from there when it reads them next (a minor page
// fault per 16 pages or so). Its resident total then falls to its private
// bytes, which is what an idle guest really costs. Pages it wrote are
// never touched. It returns the bytes unmapped. Not during a Call of the
// same guest (it waits for the call).
func (g *Guest) Trim() int64 {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.storeFreed || g.mem == nil {
		return 0
	}
	mem := g.mem.UnsafeData(g.store)
	b, err := g.img.base()
	if err != nil {
		return 0
	}
	return trimShared(mem, len(b.mem), g.mappedFrom) * pageSize
}
