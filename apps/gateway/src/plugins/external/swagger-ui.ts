import swaggerUi from '@fastify/swagger-ui';
import fp from 'fastify-plugin';

// /api-reference: Swagger UI from the package's own static assets (works offline: no CDN, no
// web fonts, no validator badge). Its CSP is narrowed to 'self' so nothing external can load.
// Tags start collapsed: with every operation listed open ('list'), Swagger UI stopped rendering
// after the first tag once the document passed ~130 operations (measured in Chromium).

export default fp(
  async (fastify) => {
    await fastify.register(swaggerUi, {
      routePrefix: '/api-reference',
      uiConfig: { validatorUrl: null, docExpansion: 'none', deepLinking: true, tryItOutEnabled: false },
      staticCSP: true,
      transformStaticCSP: (header) =>
        header
          .replace(/ https:/g, '')
          .replace(/ validator\.swagger\.io/g, '')
          .replace(/ upgrade-insecure-requests;/, ''),
    });
  },
  { name: 'swagger-ui', dependencies: ['swagger'] },
);
