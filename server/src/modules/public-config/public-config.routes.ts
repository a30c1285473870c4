import { formatTaxId, PRICE_PER_EMAIL_MILLIS, type PublicConfig } from '@carteiro/shared';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../../config';

/** What the browser may know of the configuration (an explicit list: nothing secret). */
export async function publicConfigRoutes(app: FastifyInstance, options: { config: Config }): Promise<void> {
  const { config } = options;
  const body: PublicConfig = {
    contactEmail: config.CONTACT_EMAIL,
    /** The privacy policy's controller and encarregado (empty when the operator has not set them). */
    operatorLegalName: config.OPERATOR_LEGAL_NAME,
    operatorTaxId: config.OPERATOR_TAX_ID ? formatTaxId(config.OPERATOR_TAX_ID) : '',
    dpoName: config.DPO_NAME,
    dpoEmail: config.DPO_EMAIL || config.CONTACT_EMAIL,
    googleSignIn: config.googleSignInEnabled,
    minPasswordLength: config.MIN_PASSWORD_LENGTH,
    maxPasswordLength: config.MAX_PASSWORD_LENGTH,
    priceMillis: PRICE_PER_EMAIL_MILLIS,
    devMailbox: config.mailCatcherEnabled,
    /** Smallest Pix top-up the server accepts (the top-up form's minimum). */
    topupMinMillis: config.TOPUP_MIN_MILLIS,
  };
  app.get('/api/public-config', async () => body);
}
