import { defineArea } from '../area';
import * as walletsSchemas from './wallets.schemas';
import * as fundsSchemas from './funds.schemas';
import * as paymentsSchemas from './payments.schemas';
import routes from './wallets.routes';

export default defineArea({
  name: 'wallets',
  prefix: '/v1/wallets/:agent_id',
  routes,
  schemas: [walletsSchemas, fundsSchemas, paymentsSchemas],
});
