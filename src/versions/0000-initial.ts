/** The first version of the API: the baseline every later change is described against. */
import type { ApiVersion } from './types.js';

export const initial: ApiVersion = {
  date: '2017-01-01',
  title: 'Initial API',
  description:
    'Users, API keys and metadata; requests without X-API-VERSION use the version the ' +
    'account was created on.',
};
