// One static import per vendored schema file (bundlers such as esbuild inline JSON imports, while
// reading the folder at run time would break once a service is bundled). schema-files.spec.ts
// fails when this list and libs/ucp/schemas/ drift apart.
import s0 from '../schemas/capability.json';
import s1 from '../schemas/common/identity_linking.json';
import s2 from '../schemas/discovery/profile_schema.json';
import s3 from '../schemas/payment_handler.json';
import s4 from '../schemas/service.json';
import s5 from '../schemas/shopping/ap2_mandate.json';
import s6 from '../schemas/shopping/buyer_consent.json';
import s7 from '../schemas/shopping/cart.json';
import s8 from '../schemas/shopping/catalog_lookup.json';
import s9 from '../schemas/shopping/catalog_search.json';
import s10 from '../schemas/shopping/checkout.json';
import s11 from '../schemas/shopping/discount.json';
import s12 from '../schemas/shopping/fulfillment.json';
import s13 from '../schemas/shopping/order.json';
import s14 from '../schemas/shopping/payment.json';
import s15 from '../schemas/shopping/types/account_info.json';
import s16 from '../schemas/shopping/types/adjustment.json';
import s17 from '../schemas/shopping/types/amount.json';
import s18 from '../schemas/shopping/types/attribution.json';
import s19 from '../schemas/shopping/types/available_payment_instrument.json';
import s20 from '../schemas/shopping/types/binding.json';
import s21 from '../schemas/shopping/types/business_fulfillment_config.json';
import s22 from '../schemas/shopping/types/buyer.json';
import s23 from '../schemas/shopping/types/card_credential.json';
import s24 from '../schemas/shopping/types/card_payment_instrument.json';
import s25 from '../schemas/shopping/types/category.json';
import s26 from '../schemas/shopping/types/context.json';
import s27 from '../schemas/shopping/types/description.json';
import s28 from '../schemas/shopping/types/detail_option_value.json';
import s29 from '../schemas/shopping/types/error_code.json';
import s30 from '../schemas/shopping/types/error_response.json';
import s31 from '../schemas/shopping/types/expectation.json';
import s32 from '../schemas/shopping/types/fulfillment.json';
import s33 from '../schemas/shopping/types/fulfillment_available_method.json';
import s34 from '../schemas/shopping/types/fulfillment_destination.json';
import s35 from '../schemas/shopping/types/fulfillment_event.json';
import s36 from '../schemas/shopping/types/fulfillment_group.json';
import s37 from '../schemas/shopping/types/fulfillment_method.json';
import s38 from '../schemas/shopping/types/fulfillment_option.json';
import s39 from '../schemas/shopping/types/info_code.json';
import s40 from '../schemas/shopping/types/input_correlation.json';
import s41 from '../schemas/shopping/types/item.json';
import s42 from '../schemas/shopping/types/line_item.json';
import s43 from '../schemas/shopping/types/link.json';
import s44 from '../schemas/shopping/types/media.json';
import s45 from '../schemas/shopping/types/merchant_fulfillment_config.json';
import s46 from '../schemas/shopping/types/message.json';
import s47 from '../schemas/shopping/types/message_error.json';
import s48 from '../schemas/shopping/types/message_info.json';
import s49 from '../schemas/shopping/types/message_warning.json';
import s50 from '../schemas/shopping/types/option_value.json';
import s51 from '../schemas/shopping/types/order_confirmation.json';
import s52 from '../schemas/shopping/types/order_line_item.json';
import s53 from '../schemas/shopping/types/pagination.json';
import s54 from '../schemas/shopping/types/payment_credential.json';
import s55 from '../schemas/shopping/types/payment_identity.json';
import s56 from '../schemas/shopping/types/payment_instrument.json';
import s57 from '../schemas/shopping/types/platform_fulfillment_config.json';
import s58 from '../schemas/shopping/types/postal_address.json';
import s59 from '../schemas/shopping/types/price.json';
import s60 from '../schemas/shopping/types/price_filter.json';
import s61 from '../schemas/shopping/types/price_range.json';
import s62 from '../schemas/shopping/types/product.json';
import s63 from '../schemas/shopping/types/product_option.json';
import s64 from '../schemas/shopping/types/rating.json';
import s65 from '../schemas/shopping/types/retail_location.json';
import s66 from '../schemas/shopping/types/reverse_domain_name.json';
import s67 from '../schemas/shopping/types/search_filters.json';
import s68 from '../schemas/shopping/types/selected_option.json';
import s69 from '../schemas/shopping/types/shipping_destination.json';
import s70 from '../schemas/shopping/types/signals.json';
import s71 from '../schemas/shopping/types/signed_amount.json';
import s72 from '../schemas/shopping/types/token_credential.json';
import s73 from '../schemas/shopping/types/total.json';
import s74 from '../schemas/shopping/types/totals.json';
import s75 from '../schemas/shopping/types/variant.json';
import s76 from '../schemas/shopping/types/warning_code.json';
import s77 from '../schemas/transports/embedded_config.json';
import s78 from '../schemas/ucp.json';

/** Every vendored schema, by its path under libs/ucp/schemas/. */
export const schemaFiles: ReadonlyArray<{ path: string; schema: unknown }> = [
  { path: 'capability.json', schema: s0 },
  { path: 'common/identity_linking.json', schema: s1 },
  { path: 'discovery/profile_schema.json', schema: s2 },
  { path: 'payment_handler.json', schema: s3 },
  { path: 'service.json', schema: s4 },
  { path: 'shopping/ap2_mandate.json', schema: s5 },
  { path: 'shopping/buyer_consent.json', schema: s6 },
  { path: 'shopping/cart.json', schema: s7 },
  { path: 'shopping/catalog_lookup.json', schema: s8 },
  { path: 'shopping/catalog_search.json', schema: s9 },
  { path: 'shopping/checkout.json', schema: s10 },
  { path: 'shopping/discount.json', schema: s11 },
  { path: 'shopping/fulfillment.json', schema: s12 },
  { path: 'shopping/order.json', schema: s13 },
  { path: 'shopping/payment.json', schema: s14 },
  { path: 'shopping/types/account_info.json', schema: s15 },
  { path: 'shopping/types/adjustment.json', schema: s16 },
  { path: 'shopping/types/amount.json', schema: s17 },
  { path: 'shopping/types/attribution.json', schema: s18 },
  { path: 'shopping/types/available_payment_instrument.json', schema: s19 },
  { path: 'shopping/types/binding.json', schema: s20 },
  { path: 'shopping/types/business_fulfillment_config.json', schema: s21 },
  { path: 'shopping/types/buyer.json', schema: s22 },
  { path: 'shopping/types/card_credential.json', schema: s23 },
  { path: 'shopping/types/card_payment_instrument.json', schema: s24 },
  { path: 'shopping/types/category.json', schema: s25 },
  { path: 'shopping/types/context.json', schema: s26 },
  { path: 'shopping/types/description.json', schema: s27 },
  { path: 'shopping/types/detail_option_value.json', schema: s28 },
  { path: 'shopping/types/error_code.json', schema: s29 },
  { path: 'shopping/types/error_response.json', schema: s30 },
  { path: 'shopping/types/expectation.json', schema: s31 },
  { path: 'shopping/types/fulfillment.json', schema: s32 },
  { path: 'shopping/types/fulfillment_available_method.json', schema: s33 },
  { path: 'shopping/types/fulfillment_destination.json', schema: s34 },
  { path: 'shopping/types/fulfillment_event.json', schema: s35 },
  { path: 'shopping/types/fulfillment_group.json', schema: s36 },
  { path: 'shopping/types/fulfillment_method.json', schema: s37 },
  { path: 'shopping/types/fulfillment_option.json', schema: s38 },
  { path: 'shopping/types/info_code.json', schema: s39 },
  { path: 'shopping/types/input_correlation.json', schema: s40 },
  { path: 'shopping/types/item.json', schema: s41 },
  { path: 'shopping/types/line_item.json', schema: s42 },
  { path: 'shopping/types/link.json', schema: s43 },
  { path: 'shopping/types/media.json', schema: s44 },
  { path: 'shopping/types/merchant_fulfillment_config.json', schema: s45 },
  { path: 'shopping/types/message.json', schema: s46 },
  { path: 'shopping/types/message_error.json', schema: s47 },
  { path: 'shopping/types/message_info.json', schema: s48 },
  { path: 'shopping/types/message_warning.json', schema: s49 },
  { path: 'shopping/types/option_value.json', schema: s50 },
  { path: 'shopping/types/order_confirmation.json', schema: s51 },
  { path: 'shopping/types/order_line_item.json', schema: s52 },
  { path: 'shopping/types/pagination.json', schema: s53 },
  { path: 'shopping/types/payment_credential.json', schema: s54 },
  { path: 'shopping/types/payment_identity.json', schema: s55 },
  { path: 'shopping/types/payment_instrument.json', schema: s56 },
  { path: 'shopping/types/platform_fulfillment_config.json', schema: s57 },
  { path: 'shopping/types/postal_address.json', schema: s58 },
  { path: 'shopping/types/price.json', schema: s59 },
  { path: 'shopping/types/price_filter.json', schema: s60 },
  { path: 'shopping/types/price_range.json', schema: s61 },
  { path: 'shopping/types/product.json', schema: s62 },
  { path: 'shopping/types/product_option.json', schema: s63 },
  { path: 'shopping/types/rating.json', schema: s64 },
  { path: 'shopping/types/retail_location.json', schema: s65 },
  { path: 'shopping/types/reverse_domain_name.json', schema: s66 },
  { path: 'shopping/types/search_filters.json', schema: s67 },
  { path: 'shopping/types/selected_option.json', schema: s68 },
  { path: 'shopping/types/shipping_destination.json', schema: s69 },
  { path: 'shopping/types/signals.json', schema: s70 },
  { path: 'shopping/types/signed_amount.json', schema: s71 },
  { path: 'shopping/types/token_credential.json', schema: s72 },
  { path: 'shopping/types/total.json', schema: s73 },
  { path: 'shopping/types/totals.json', schema: s74 },
  { path: 'shopping/types/variant.json', schema: s75 },
  { path: 'shopping/types/warning_code.json', schema: s76 },
  { path: 'transports/embedded_config.json', schema: s77 },
  { path: 'ucp.json', schema: s78 },
];
