import { abVariantLetter, plural } from '@carteiro/shared';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { FieldError, Label } from '@/components/ui/label';
import { errorText } from '@/lib/error-text';
import { toast, useUser } from '@/stores/app-store';
import { testSendCampaign } from '../api/test-send-campaign';
import type { Campaign } from '../api/types';

/** Before sending an A/B campaign: one test e-mail of each variant, to see every subject in a real inbox. */
export function AbTestSend({ campaign }: { campaign: Campaign }) {
  const user = useUser();
  const [emails, setEmails] = useState(user?.email ?? '');
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  if (!campaign.abTest) return null;
  const count = campaign.abTest.variants.length + 1;
  return (
    <Card className="mb-6" data-testid="ab-test-send">
      <CardContent>
        <h2 className="mb-1 text-lg font-bold text-slate-900">Testar as variantes</h2>
        <p className="mb-3 text-sm text-slate-600">
          Receba um e-mail de teste de cada uma das {count} variantes (A a {abVariantLetter(count - 1)}), com "[TESTE]"
          no assunto.
        </p>
        <form
          className="flex flex-wrap items-end gap-2"
          onSubmit={async (event) => {
            event.preventDefault();
            const list = emails
              .split(/[,;\s]+/)
              .map((e) => e.trim())
              .filter(Boolean);
            setError(null);
            setPending(true);
            try {
              for (let variant = 0; variant < count; variant++) {
                await testSendCampaign(campaign.id, list, undefined, variant);
              }
              const total = count * list.length;
              toast({
                title: `${total} ${plural(total, 'teste enviado', 'testes enviados')}`,
                description: `Um de cada variante para ${list.join(', ')}.`,
                variant: 'success',
              });
            } catch (failure) {
              setError(errorText(failure));
            } finally {
              setPending(false);
            }
          }}
        >
          <div className="min-w-64 flex-1">
            <Label htmlFor="ab-test-emails">E-mails para o teste (até 5)</Label>
            <Input id="ab-test-emails" className="mt-1.5" value={emails} onChange={(e) => setEmails(e.target.value)} />
          </div>
          <Button type="submit" disabled={pending}>
            {pending ? 'Enviando…' : 'Enviar um teste de cada variante'}
          </Button>
        </form>
        <FieldError>{error}</FieldError>
      </CardContent>
    </Card>
  );
}
