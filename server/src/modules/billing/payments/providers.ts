import type { Config } from '../../../config';
import { createMercadoPagoProvider, mercadoPagoApiFetcher } from './mercado-pago';
import type { PaymentProvider } from './payment-provider';
import { createPixApiProvider } from './pix-api';

export interface PaymentProviders {
  /** The provider that charges new top-ups (PAYMENT_PROVIDER); null = static BR Code, confirmed by hand. */
  active: PaymentProvider | null;
  /** Webhook receivers: Mercado Pago stays on whenever its secret and token are set (earlier static top-ups). */
  mercadoPago: PaymentProvider | null;
  pixApi: PaymentProvider | null;
}

/** Builds the configured payment providers once per process (the Pix API one keeps its mTLS agent and token). */
export function createPaymentProviders(config: Config): PaymentProviders {
  const mercadoPago =
    config.MERCADO_PAGO_WEBHOOK_SECRET && config.MERCADO_PAGO_ACCESS_TOKEN
      ? createMercadoPagoProvider({
          secret: config.MERCADO_PAGO_WEBHOOK_SECRET,
          accessToken: config.MERCADO_PAGO_ACCESS_TOKEN,
          apiUrl: config.MERCADO_PAGO_API_URL,
          fetchPayment: mercadoPagoApiFetcher(config.MERCADO_PAGO_ACCESS_TOKEN, config.MERCADO_PAGO_API_URL),
        })
      : null;
  const pixApi = config.pixApi
    ? createPixApiProvider({
        ...config.pixApi,
        pixKey: config.PIX_KEY,
        merchantName: config.PIX_MERCHANT_NAME,
        merchantCity: config.PIX_MERCHANT_CITY,
      })
    : null;
  const active =
    config.PAYMENT_PROVIDER === 'pix-api' ? pixApi : config.PAYMENT_PROVIDER === 'mercadopago' ? mercadoPago : null;
  return { active, mercadoPago, pixApi };
}
