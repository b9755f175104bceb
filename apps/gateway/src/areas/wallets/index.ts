import { defineArea } from '../area';
import * as walletsSchemas from './wallets.schemas';
import routes from './wallets.routes';

export default defineArea({
  name: 'wallets',
  prefix: '/v1/wallets/:agent_id',
  routes,
  schemas: [walletsSchemas],
});
