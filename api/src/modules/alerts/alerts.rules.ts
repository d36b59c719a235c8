/** page/per_page (02 §7) or simple-rest _start/_end (D3), whichever the caller sent. */
export function pageWindow(
  q: { page?: unknown; per_page?: unknown; _start?: unknown; _end?: unknown },
  defaultSize = 10,
): { offset: number; limit: number } {
  if (q.page != null || q.per_page != null) {
    const perPage = Math.min(100, Math.max(1, Number(q.per_page ?? defaultSize) || defaultSize));
    const page = Math.max(1, Number(q.page ?? 1) || 1);
    return { offset: (page - 1) * perPage, limit: perPage };
  }
  const offset = Math.max(0, Number(q._start ?? 0) || 0);
  const end = q._end != null ? Number(q._end) : offset + defaultSize;
  return { offset, limit: Math.max(0, Math.min(100, end - offset)) };
}
