import { defineArea } from '../area';
import * as feedsSchemas from './feeds.schemas';
import * as reportsSchemas from './reports.schemas';
import routes from './telemetry.routes';

export default defineArea({
  name: 'telemetry',
  routes,
  schemas: [feedsSchemas, reportsSchemas],
});
