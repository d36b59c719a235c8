import { afterEach, describe, expect, it, vi } from 'vitest';
import { dataProvider, totalOf } from './data';
import { http } from './http';

describe("the data provider's custom method (useCustom / useCustomMutation)", () => {
  afterEach(() => vi.restoreAllMocks());

  it('sends the query without empty values, and returns the listing total', async () => {
    const request = vi.spyOn(http, 'request').mockResolvedValue({ data: [{ id: 1 }], headers: { 'x-total-count': '7' } });
    const answer = await dataProvider.custom!({
      url: '/api/v1/reports/client_alerts_list',
      method: 'get',
      query: { status: 'active', page: 1, search: '', since_id: undefined, type: null },
      sorters: [{ field: 'name', order: 'asc' }],
      filters: [{ field: 'active', operator: 'eq', value: true }],
    });
    expect(request).toHaveBeenCalledWith(
      expect.objectContaining({
        url: '/api/v1/reports/client_alerts_list',
        method: 'get',
        params: { _sort: 'name', _order: 'asc', active: true, status: 'active', page: 1 },
      }),
    );
    expect(answer.data).toEqual([{ id: 1 }]);
    expect(totalOf(answer)).toBe(7);
  });

  it('sends no body for an empty payload, and no total when the API sends none', async () => {
    const request = vi.spyOn(http, 'request').mockResolvedValue({ data: { ok: true }, headers: {} });
    const answer = await dataProvider.custom!({ url: '/api/v1/x/1/confirm', method: 'post', payload: {} });
    expect(request.mock.calls[0][0]).toMatchObject({ method: 'post', data: undefined });
    expect(totalOf(answer)).toBe(0);
  });
});
