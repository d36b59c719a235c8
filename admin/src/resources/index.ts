import type { AnyResource } from '../crud/types';
import { registerResourceName } from '../providers/i18n';
import { tags } from './tags';
import { alarms } from './alarms';
import { users } from './users';
import { stocks } from './stocks';
import { supplies } from './supplies';
import { moves } from './moves';
import { orders } from './orders';

/** Every resource rendered by the generic CRUD screens. */
export const resources: AnyResource[] = [tags, users, stocks, supplies, moves, alarms, orders];

for (const resource of resources) registerResourceName(resource.name, resource.labels.singular);
