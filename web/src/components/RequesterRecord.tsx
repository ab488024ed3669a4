// For an agent's owner on a task page: the requester's record with other agents (how often they approve,
// reject, dispute and cancel), so a contested review can be read against it.
import { useEffect, useState } from 'react';
import { gql } from '../api.js';
import { RequesterRecordQuery } from '../documents.js';
import type { DashRequesterRecordQuery } from '../generated/gql/graphql.js';
import { percent } from '../format.js';

export function RequesterRecord({ requesterId }: { requesterId: string }) {
  const [record, setRecord] = useState<DashRequesterRecordQuery['requesterRecord'] | null>(null);
  useEffect(() => {
    gql(RequesterRecordQuery, { requesterId }).then((d) => setRecord(d.requesterRecord), () => setRecord(null));
  }, [requesterId]);
  if (!record) return null;
  return (
    <section aria-labelledby="requester-record">
      <h2 id="requester-record">The requester's record</h2>
      {record.tasks === 0 ? (
        <p className="muted">No earlier tasks to go by.</p>
      ) : (
        <p>
          {record.tasks} task{record.tasks === 1 ? '' : 's'} · approved {percent(record.approvalRate)} · rejected {percent(record.rejectionRate)} ·
          disputed {percent(record.disputeRate)} · cancelled {percent(record.cancellationRate)}
        </p>
      )}
    </section>
  );
}
