import { Link } from 'react-router';
import { SiteFooter } from '@/components/layouts/site-footer';
import { SiteHeader } from '@/components/layouts/site-header';
import { useI18n } from '@/lib/i18n';
import { usePublicConfig } from '@/lib/public-config';
import { usePageTitle } from '@/lib/use-page-title';

/** The date of the text below: change it with every change of substance. */
export const TERMS_OF_USE_UPDATED = '25 de novembro de 2026';

/**
 * The terms of use, in pt-BR (a legal text, like the privacy policy, not machine-translated). Linked from sign-up
 * ("Ao criar a conta, você concorda…") and from the public footer.
 */
export function TermsOfUsePage() {
  const { t } = useI18n();
  const { contactEmail, operatorLegalName, operatorTaxId } = usePublicConfig();
  usePageTitle(t('terms.title'));
  const mail = (
    <a href={`mailto:${contactEmail}`} className="font-medium text-brand-700 underline underline-offset-2">
      {contactEmail}
    </a>
  );
  const linkClass = 'font-medium text-brand-700 underline underline-offset-2';

  return (
    <div className="flex min-h-dvh flex-col overflow-x-clip">
      <SiteHeader />
      <main className="flex-1 bg-white">
        <div className="mx-auto max-w-3xl px-4 py-12 sm:px-6 sm:py-16">
          <Link to="/" className="text-sm font-semibold text-brand-700 hover:text-brand-900">
            ← {t('privacy.back')}
          </Link>
          <h1 className="mt-6 text-3xl font-extrabold tracking-tight text-slate-900 sm:text-4xl">{t('terms.title')}</h1>
          <p className="mt-3 text-sm text-slate-600">Última atualização: {TERMS_OF_USE_UPDATED}</p>

          <div className="mt-10 space-y-10 text-base leading-relaxed text-slate-700 [&_h2]:mb-3 [&_h2]:text-xl [&_h2]:font-bold [&_h2]:text-slate-900 [&_li]:pl-1 [&_ul]:mt-3 [&_ul]:list-disc [&_ul]:space-y-2 [&_ul]:pl-6 [&_p+p]:mt-3">
            <section>
              <p>
                Estes termos valem para quem cria uma conta no Carteiro para enviar e-mails
                {operatorLegalName ? (
                  <>
                    {' '}
                    por meio do serviço mantido por <strong>{operatorLegalName}</strong>
                    {operatorTaxId ? `, CNPJ/CPF ${operatorTaxId}` : ''}
                  </>
                ) : null}
                . Ao criar a conta, você declara que os leu e concorda com eles e com a{' '}
                <Link to="/privacy-policy" className={linkClass}>
                  Política de privacidade
                </Link>
                .
              </p>
            </section>

            <section aria-labelledby="conta">
              <h2 id="conta">1. A sua conta</h2>
              <ul>
                <li>Os dados da conta (nome, e-mail, razão social e CNPJ ou CPF) precisam ser verdadeiros.</li>
                <li>Você cuida da sua senha e responde pelo que for feito com o seu acesso e o da sua equipe.</li>
              </ul>
            </section>

            <section aria-labelledby="envios">
              <h2 id="envios">2. O que você pode enviar</h2>
              <ul>
                <li>
                  Só para quem tem <strong>base legal da LGPD</strong> para receber (consentimento, relação de cliente
                  ou outra prevista em lei), registrada ao cadastrar ou importar o contato.
                </li>
                <li>
                  Todo e-mail leva a identificação da sua empresa e o link de <strong>descadastro</strong>; quem pedir
                  para sair não recebe mais.
                </li>
                <li>
                  É proibido enviar spam, listas compradas, golpes, conteúdo ilegal ou que se passe por outra pessoa ou
                  empresa.
                </li>
              </ul>
            </section>

            <section aria-labelledby="saldo">
              <h2 id="saldo">3. Saldo pré-pago</h2>
              <p>
                O Carteiro não tem mensalidade: você coloca créditos por Pix e cada e-mail enviado é debitado pelo preço
                da página de preços vigente no momento do envio. O custo de uma campanha é mostrado antes de enviar.
              </p>
            </section>

            <section aria-labelledby="suspensao">
              <h2 id="suspensao">4. Suspensão</h2>
              <p>
                Podemos pausar envios ou suspender uma conta que descumpra estes termos ou que cause reclamações de spam
                e devoluções acima do normal, para proteger quem recebe e os demais remetentes. Avisamos o motivo por
                e-mail.
              </p>
            </section>

            <section aria-labelledby="alteracoes">
              <h2 id="alteracoes">5. Alterações e contato</h2>
              <p>
                Estes termos podem mudar; mudanças importantes são avisadas por e-mail com antecedência. Dúvidas: {mail}
                .
              </p>
            </section>
          </div>
        </div>
      </main>
      <SiteFooter />
    </div>
  );
}
