import { defineArea } from '../area';
import * as intentsSchemas from './intents.schemas';
import routes from './intents.routes';

export default defineArea({
  name: 'commerce-intents',
  routes,
  schemas: [intentsSchemas],
});
