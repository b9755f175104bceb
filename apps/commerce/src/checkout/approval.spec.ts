import { approvalMessage, approvalNewlyRequested, approvalPayload, deriveApproval, isSignatureShaped } from './approval';

describe('approval', () => {
  it('should sign over the canonical JSON of the five fields with the total as a decimal string', () => {
    const payload = approvalPayload({ commerceSessionId: 'cs_1', total: 58_500_000n, currency: 'USD' }, 'approve', 'agent:signer');
    expect(payload).toEqual({ commerce_session_id: 'cs_1', decision: 'approve', approver_id: 'agent:signer', total: '58.5', currency: 'USD' });
    expect(Buffer.from(approvalMessage(payload)).toString('utf8')).toBe(
      '{"approver_id":"agent:signer","commerce_session_id":"cs_1","currency":"USD","decision":"approve","total":"58.5"}',
    );
  });

  it('should need no approval when the mandate asks none, whatever was decided before', () => {
    expect(deriveApproval(null, null, 5n)).toEqual({ approval: 'not_required', approvalReason: null });
    expect(deriveApproval({ approval: 'denied', approvalReason: 'manual_mode', approvedTotal: null, total: 5n }, null, 5n)).toEqual({ approval: 'not_required', approvalReason: null });
  });

  it('should ask for approval of a new session the mandate wants approved', () => {
    expect(deriveApproval(null, 'step_up_threshold', 5n)).toEqual({ approval: 'pending', approvalReason: 'step_up_threshold' });
  });

  it('should keep an approval only for the total it was given for', () => {
    const approved = { approval: 'approved' as const, approvalReason: 'new_merchant' as const, approvedTotal: 70n, total: 70n };
    expect(deriveApproval(approved, 'new_merchant', 70n)).toEqual({ approval: 'approved', approvalReason: 'new_merchant' });
    expect(deriveApproval(approved, 'new_merchant', 71n)).toEqual({ approval: 'pending', approvalReason: 'new_merchant' });
  });

  it('should keep a denial of the same cart and ask again for a changed one', () => {
    const denied = { approval: 'denied' as const, approvalReason: 'manual_mode' as const, approvedTotal: null, total: 70n };
    expect(deriveApproval(denied, 'manual_mode', 70n).approval).toBe('denied');
    expect(deriveApproval(denied, 'manual_mode', 60n).approval).toBe('pending');
  });

  it('should tell when the signer is asked anew', () => {
    expect(approvalNewlyRequested(null, 'pending')).toBe(true);
    expect(approvalNewlyRequested('approved', 'pending')).toBe(true);
    expect(approvalNewlyRequested('pending', 'pending')).toBe(false);
    expect(approvalNewlyRequested(null, 'not_required')).toBe(false);
  });
});

describe('approval signature shape', () => {
  it('should accept only base64 of 64 bytes', () => {
    expect(isSignatureShaped(Buffer.alloc(64, 7).toString('base64'))).toBe(true);
    expect(isSignatureShaped(Buffer.alloc(63, 7).toString('base64'))).toBe(false);
    expect(isSignatureShaped('not base64!')).toBe(false);
    expect(isSignatureShaped('')).toBe(false);
  });
});
