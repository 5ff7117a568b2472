/** The records answer of a one-record patient, for review page tests. */
export const ONE_RECORD_PATIENT = {
  patient: { patientId: 'P-7', name: 'Bo Chen', birthDate: null, sex: 'M', recordCount: 1, latestRecordDate: '2024-02-01T08:00:00Z' },
  records: [
    {
      recordId: 'R-70', patientId: 'P-7', acquiredAt: '2024-02-01T08:00:00Z', modality: 'IVUS',
      bmodeFrameCount: 10, angioFrameCount: 2, angioPreview: null, bmodePreview: null, annotation: null,
    },
  ],
};
