import simpleRestDataProvider from '@refinedev/simple-rest';
import { API_URL } from '../constants';
import { http } from './http';

/** Lists follow simple-rest's conventions exactly (D3), so the stock provider needs no changes. */
export const dataProvider = simpleRestDataProvider(API_URL, http);
