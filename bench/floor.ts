/**
 * The floor: an exact brute-force scan in process, Float32Array dot products over
 * unit vectors, no persistence, no SQL. Every engine's figure is read against it.
 */
export interface FloorHit { id: string; score: number }

interface FloorSpace { ids: string[]; vecs: Float32Array[]; active: Uint8Array; index: Map<string, number> }

export class Floor {
  private spaces = new Map<string, FloorSpace>();

  constructor(readonly dim: number) {}

  private space(spaceId: string): FloorSpace {
    let s = this.spaces.get(spaceId);
    if (!s) {
      s = { ids: [], vecs: [], active: new Uint8Array(1024), index: new Map() };
      this.spaces.set(spaceId, s);
    }
    return s;
  }

  add(spaceId: string, id: string, v: Float32Array): void {
    const s = this.space(spaceId);
    if (s.ids.length >= s.active.length) {
      const a = new Uint8Array(s.active.length * 2);
      a.set(s.active);
      s.active = a;
    }
    s.index.set(id, s.ids.length);
    s.active[s.ids.length] = 1;
    s.ids.push(id);
    s.vecs.push(v);
  }

  vectorOf(spaceId: string, id: string): Float32Array | null {
    const s = this.spaces.get(spaceId);
    const i = s?.index.get(id);
    return s && i !== undefined ? s.vecs[i] : null;
  }

  /** Exact top-k among the active vectors of a space, best first. */
  search(spaceId: string, q: Float32Array, k: number): FloorHit[] {
    const s = this.spaces.get(spaceId);
    if (!s) return [];
    const topS: number[] = [];
    const topI: number[] = [];
    const d = q.length;
    for (let i = 0; i < s.vecs.length; i++) {
      if (!s.active[i]) continue;
      const v = s.vecs[i];
      let dot = 0;
      for (let j = 0; j < d; j++) dot += q[j] * v[j];
      if (topS.length < k || dot > topS[topS.length - 1]) {
        let at = topS.length;
        while (at > 0 && topS[at - 1] < dot) at--;
        topS.splice(at, 0, dot);
        topI.splice(at, 0, i);
        if (topS.length > k) { topS.pop(); topI.pop(); }
      }
    }
    return topI.map((i, j) => ({ id: s.ids[i], score: topS[j] }));
  }

  /** Bulk status change: returns how many changed. */
  setActive(spaceId: string, ids: string[], active: boolean): number {
    const s = this.spaces.get(spaceId);
    if (!s) return 0;
    let n = 0;
    for (const id of ids) {
      const i = s.index.get(id);
      if (i !== undefined && s.active[i] !== (active ? 1 : 0)) { s.active[i] = active ? 1 : 0; n++; }
    }
    return n;
  }

  /** Forget: drops the ids (their slots stay, inactive, as a real delete would leave a hole). */
  remove(spaceId: string, ids: string[]): number {
    const s = this.spaces.get(spaceId);
    if (!s) return 0;
    let n = 0;
    for (const id of ids) {
      const i = s.index.get(id);
      if (i !== undefined) { s.active[i] = 0; s.index.delete(id); n++; }
    }
    return n;
  }
}
