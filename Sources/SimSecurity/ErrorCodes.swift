// Generated from the error enum of Apple's SecBase.h (names and numeric values only).
// Do not edit by hand: run scripts/generate-error-codes.py.

// swift-format-ignore-file

/// No error.
public let errSecSuccess: OSStatus = 0
/// Function or operation not implemented.
public let errSecUnimplemented: OSStatus = -4
/// The disk is full.
public let errSecDiskFull: OSStatus = -34
/// I/O error.
public let errSecIO: OSStatus = -36
/// File already open with write permission.
public let errSecOpWr: OSStatus = -49
/// One or more parameters passed to a function were not valid.
public let errSecParam: OSStatus = -50
/// Write permissions error.
public let errSecWrPerm: OSStatus = -61
/// Failed to allocate memory.
public let errSecAllocate: OSStatus = -108
/// User canceled the operation.
public let errSecUserCanceled: OSStatus = -128
/// Bad parameter or invalid state for operation.
public let errSecBadReq: OSStatus = -909
/// An internal component failed.
public let errSecInternalComponent: OSStatus = -2070
/// An unknown Core Foundation error occurred.
public let errSecCoreFoundationUnknown: OSStatus = -4960
/// A required entitlement isn't present.
public let errSecMissingEntitlement: OSStatus = -34018
/// Client is restricted and is not permitted to perform this operation.
public let errSecRestrictedAPI: OSStatus = -34020
/// No keychain is available. You may need to restart your computer.
public let errSecNotAvailable: OSStatus = -25291
/// This keychain cannot be modified.
public let errSecReadOnly: OSStatus = -25292
/// The user name or passphrase you entered is not correct.
public let errSecAuthFailed: OSStatus = -25293
/// The specified keychain could not be found.
public let errSecNoSuchKeychain: OSStatus = -25294
/// The specified keychain is not a valid keychain file.
public let errSecInvalidKeychain: OSStatus = -25295
/// A keychain with the same name already exists.
public let errSecDuplicateKeychain: OSStatus = -25296
/// The specified callback function is already installed.
public let errSecDuplicateCallback: OSStatus = -25297
/// The specified callback function is not valid.
public let errSecInvalidCallback: OSStatus = -25298
/// The specified item already exists in the keychain.
public let errSecDuplicateItem: OSStatus = -25299
/// The specified item could not be found in the keychain.
public let errSecItemNotFound: OSStatus = -25300
/// There is not enough memory available to use the specified item.
public let errSecBufferTooSmall: OSStatus = -25301
/// This item contains information which is too large or in a format that cannot be displayed.
public let errSecDataTooLarge: OSStatus = -25302
/// The specified attribute does not exist.
public let errSecNoSuchAttr: OSStatus = -25303
/// The specified item is no longer valid. It may have been deleted from the keychain.
public let errSecInvalidItemRef: OSStatus = -25304
/// Unable to search the current keychain.
public let errSecInvalidSearchRef: OSStatus = -25305
/// The specified item does not appear to be a valid keychain item.
public let errSecNoSuchClass: OSStatus = -25306
/// A default keychain could not be found.
public let errSecNoDefaultKeychain: OSStatus = -25307
/// User interaction is not allowed.
public let errSecInteractionNotAllowed: OSStatus = -25308
/// The specified attribute could not be modified.
public let errSecReadOnlyAttr: OSStatus = -25309
/// This keychain was created by a different version of the system software and cannot be opened.
public let errSecWrongSecVersion: OSStatus = -25310
/// This item specifies a key size which is too large or too small.
public let errSecKeySizeNotAllowed: OSStatus = -25311
/// A required component (data storage module) could not be loaded. You may need to restart your computer.
public let errSecNoStorageModule: OSStatus = -25312
/// A required component (certificate module) could not be loaded. You may need to restart your computer.
public let errSecNoCertificateModule: OSStatus = -25313
/// A required component (policy module) could not be loaded. You may need to restart your computer.
public let errSecNoPolicyModule: OSStatus = -25314
/// User interaction is required, but is currently not allowed.
public let errSecInteractionRequired: OSStatus = -25315
/// The contents of this item cannot be retrieved.
public let errSecDataNotAvailable: OSStatus = -25316
/// The contents of this item cannot be modified.
public let errSecDataNotModifiable: OSStatus = -25317
/// One or more certificates required to validate this certificate cannot be found.
public let errSecCreateChainFailed: OSStatus = -25318
/// The specified preferences domain is not valid.
public let errSecInvalidPrefsDomain: OSStatus = -25319
/// In dark wake, no UI possible
public let errSecInDarkWake: OSStatus = -25320
/// The specified access control list is not in standard (simple) form.
public let errSecACLNotSimple: OSStatus = -25240
/// The specified policy cannot be found.
public let errSecPolicyNotFound: OSStatus = -25241
/// The specified trust setting is invalid.
public let errSecInvalidTrustSetting: OSStatus = -25242
/// The specified item has no access control.
public let errSecNoAccessForItem: OSStatus = -25243
/// Invalid attempt to change the owner of this item.
public let errSecInvalidOwnerEdit: OSStatus = -25244
/// No trust results are available.
public let errSecTrustNotAvailable: OSStatus = -25245
/// Import/Export format unsupported.
public let errSecUnsupportedFormat: OSStatus = -25256
/// Unknown format in import.
public let errSecUnknownFormat: OSStatus = -25257
/// Key material must be wrapped for export.
public let errSecKeyIsSensitive: OSStatus = -25258
/// An attempt was made to import multiple private keys.
public let errSecMultiplePrivKeys: OSStatus = -25259
/// Passphrase is required for import/export.
public let errSecPassphraseRequired: OSStatus = -25260
/// The password reference was invalid.
public let errSecInvalidPasswordRef: OSStatus = -25261
/// The Trust Settings Record was corrupted.
public let errSecInvalidTrustSettings: OSStatus = -25262
/// No Trust Settings were found.
public let errSecNoTrustSettings: OSStatus = -25263
/// MAC verification failed during PKCS12 import (wrong password?)
public let errSecPkcs12VerifyFailure: OSStatus = -25264
/// A certificate was not signed by its proposed parent.
public let errSecNotSigner: OSStatus = -26267
/// Unable to decode the provided data.
public let errSecDecode: OSStatus = -26275
/// Deprecated spelling of ``errSecDiskFull``.
@available(*, deprecated, renamed: "errSecDiskFull")
public let errSecDskFull: OSStatus = -34
public let errSecServiceNotAvailable: OSStatus = -67585
public let errSecInsufficientClientID: OSStatus = -67586
public let errSecDeviceReset: OSStatus = -67587
public let errSecDeviceFailed: OSStatus = -67588
public let errSecAppleAddAppACLSubject: OSStatus = -67589
public let errSecApplePublicKeyIncomplete: OSStatus = -67590
public let errSecAppleSignatureMismatch: OSStatus = -67591
public let errSecAppleInvalidKeyStartDate: OSStatus = -67592
public let errSecAppleInvalidKeyEndDate: OSStatus = -67593
public let errSecConversionError: OSStatus = -67594
public let errSecAppleSSLv2Rollback: OSStatus = -67595
public let errSecQuotaExceeded: OSStatus = -67596
public let errSecFileTooBig: OSStatus = -67597
public let errSecInvalidDatabaseBlob: OSStatus = -67598
public let errSecInvalidKeyBlob: OSStatus = -67599
public let errSecIncompatibleDatabaseBlob: OSStatus = -67600
public let errSecIncompatibleKeyBlob: OSStatus = -67601
public let errSecHostNameMismatch: OSStatus = -67602
public let errSecUnknownCriticalExtensionFlag: OSStatus = -67603
public let errSecNoBasicConstraints: OSStatus = -67604
public let errSecNoBasicConstraintsCA: OSStatus = -67605
public let errSecInvalidAuthorityKeyID: OSStatus = -67606
public let errSecInvalidSubjectKeyID: OSStatus = -67607
public let errSecInvalidKeyUsageForPolicy: OSStatus = -67608
public let errSecInvalidExtendedKeyUsage: OSStatus = -67609
public let errSecInvalidIDLinkage: OSStatus = -67610
public let errSecPathLengthConstraintExceeded: OSStatus = -67611
public let errSecInvalidRoot: OSStatus = -67612
public let errSecCRLExpired: OSStatus = -67613
public let errSecCRLNotValidYet: OSStatus = -67614
public let errSecCRLNotFound: OSStatus = -67615
public let errSecCRLServerDown: OSStatus = -67616
public let errSecCRLBadURI: OSStatus = -67617
public let errSecUnknownCertExtension: OSStatus = -67618
public let errSecUnknownCRLExtension: OSStatus = -67619
public let errSecCRLNotTrusted: OSStatus = -67620
public let errSecCRLPolicyFailed: OSStatus = -67621
public let errSecIDPFailure: OSStatus = -67622
public let errSecSMIMEEmailAddressesNotFound: OSStatus = -67623
public let errSecSMIMEBadExtendedKeyUsage: OSStatus = -67624
public let errSecSMIMEBadKeyUsage: OSStatus = -67625
public let errSecSMIMEKeyUsageNotCritical: OSStatus = -67626
public let errSecSMIMENoEmailAddress: OSStatus = -67627
public let errSecSMIMESubjAltNameNotCritical: OSStatus = -67628
public let errSecSSLBadExtendedKeyUsage: OSStatus = -67629
public let errSecOCSPBadResponse: OSStatus = -67630
public let errSecOCSPBadRequest: OSStatus = -67631
public let errSecOCSPUnavailable: OSStatus = -67632
public let errSecOCSPStatusUnrecognized: OSStatus = -67633
public let errSecEndOfData: OSStatus = -67634
public let errSecIncompleteCertRevocationCheck: OSStatus = -67635
public let errSecNetworkFailure: OSStatus = -67636
public let errSecOCSPNotTrustedToAnchor: OSStatus = -67637
public let errSecRecordModified: OSStatus = -67638
public let errSecOCSPSignatureError: OSStatus = -67639
public let errSecOCSPNoSigner: OSStatus = -67640
public let errSecOCSPResponderMalformedReq: OSStatus = -67641
public let errSecOCSPResponderInternalError: OSStatus = -67642
public let errSecOCSPResponderTryLater: OSStatus = -67643
public let errSecOCSPResponderSignatureRequired: OSStatus = -67644
public let errSecOCSPResponderUnauthorized: OSStatus = -67645
public let errSecOCSPResponseNonceMismatch: OSStatus = -67646
public let errSecCodeSigningBadCertChainLength: OSStatus = -67647
public let errSecCodeSigningNoBasicConstraints: OSStatus = -67648
public let errSecCodeSigningBadPathLengthConstraint: OSStatus = -67649
public let errSecCodeSigningNoExtendedKeyUsage: OSStatus = -67650
public let errSecCodeSigningDevelopment: OSStatus = -67651
public let errSecResourceSignBadCertChainLength: OSStatus = -67652
public let errSecResourceSignBadExtKeyUsage: OSStatus = -67653
public let errSecTrustSettingDeny: OSStatus = -67654
public let errSecInvalidSubjectName: OSStatus = -67655
public let errSecUnknownQualifiedCertStatement: OSStatus = -67656
public let errSecMobileMeRequestQueued: OSStatus = -67657
public let errSecMobileMeRequestRedirected: OSStatus = -67658
public let errSecMobileMeServerError: OSStatus = -67659
public let errSecMobileMeServerNotAvailable: OSStatus = -67660
public let errSecMobileMeServerAlreadyExists: OSStatus = -67661
public let errSecMobileMeServerServiceErr: OSStatus = -67662
public let errSecMobileMeRequestAlreadyPending: OSStatus = -67663
public let errSecMobileMeNoRequestPending: OSStatus = -67664
public let errSecMobileMeCSRVerifyFailure: OSStatus = -67665
public let errSecMobileMeFailedConsistencyCheck: OSStatus = -67666
public let errSecNotInitialized: OSStatus = -67667
public let errSecInvalidHandleUsage: OSStatus = -67668
public let errSecPVCReferentNotFound: OSStatus = -67669
public let errSecFunctionIntegrityFail: OSStatus = -67670
public let errSecInternalError: OSStatus = -67671
public let errSecMemoryError: OSStatus = -67672
public let errSecInvalidData: OSStatus = -67673
public let errSecMDSError: OSStatus = -67674
public let errSecInvalidPointer: OSStatus = -67675
public let errSecSelfCheckFailed: OSStatus = -67676
public let errSecFunctionFailed: OSStatus = -67677
public let errSecModuleManifestVerifyFailed: OSStatus = -67678
public let errSecInvalidGUID: OSStatus = -67679
public let errSecInvalidHandle: OSStatus = -67680
public let errSecInvalidDBList: OSStatus = -67681
public let errSecInvalidPassthroughID: OSStatus = -67682
public let errSecInvalidNetworkAddress: OSStatus = -67683
public let errSecCRLAlreadySigned: OSStatus = -67684
public let errSecInvalidNumberOfFields: OSStatus = -67685
public let errSecVerificationFailure: OSStatus = -67686
public let errSecUnknownTag: OSStatus = -67687
public let errSecInvalidSignature: OSStatus = -67688
public let errSecInvalidName: OSStatus = -67689
public let errSecInvalidCertificateRef: OSStatus = -67690
public let errSecInvalidCertificateGroup: OSStatus = -67691
public let errSecTagNotFound: OSStatus = -67692
public let errSecInvalidQuery: OSStatus = -67693
public let errSecInvalidValue: OSStatus = -67694
public let errSecCallbackFailed: OSStatus = -67695
public let errSecACLDeleteFailed: OSStatus = -67696
public let errSecACLReplaceFailed: OSStatus = -67697
public let errSecACLAddFailed: OSStatus = -67698
public let errSecACLChangeFailed: OSStatus = -67699
public let errSecInvalidAccessCredentials: OSStatus = -67700
public let errSecInvalidRecord: OSStatus = -67701
public let errSecInvalidACL: OSStatus = -67702
public let errSecInvalidSampleValue: OSStatus = -67703
public let errSecIncompatibleVersion: OSStatus = -67704
public let errSecPrivilegeNotGranted: OSStatus = -67705
public let errSecInvalidScope: OSStatus = -67706
public let errSecPVCAlreadyConfigured: OSStatus = -67707
public let errSecInvalidPVC: OSStatus = -67708
public let errSecEMMLoadFailed: OSStatus = -67709
public let errSecEMMUnloadFailed: OSStatus = -67710
public let errSecAddinLoadFailed: OSStatus = -67711
public let errSecInvalidKeyRef: OSStatus = -67712
public let errSecInvalidKeyHierarchy: OSStatus = -67713
public let errSecAddinUnloadFailed: OSStatus = -67714
public let errSecLibraryReferenceNotFound: OSStatus = -67715
public let errSecInvalidAddinFunctionTable: OSStatus = -67716
public let errSecInvalidServiceMask: OSStatus = -67717
public let errSecModuleNotLoaded: OSStatus = -67718
public let errSecInvalidSubServiceID: OSStatus = -67719
public let errSecAttributeNotInContext: OSStatus = -67720
public let errSecModuleManagerInitializeFailed: OSStatus = -67721
public let errSecModuleManagerNotFound: OSStatus = -67722
public let errSecEventNotificationCallbackNotFound: OSStatus = -67723
public let errSecInputLengthError: OSStatus = -67724
public let errSecOutputLengthError: OSStatus = -67725
public let errSecPrivilegeNotSupported: OSStatus = -67726
public let errSecDeviceError: OSStatus = -67727
public let errSecAttachHandleBusy: OSStatus = -67728
public let errSecNotLoggedIn: OSStatus = -67729
public let errSecAlgorithmMismatch: OSStatus = -67730
public let errSecKeyUsageIncorrect: OSStatus = -67731
public let errSecKeyBlobTypeIncorrect: OSStatus = -67732
public let errSecKeyHeaderInconsistent: OSStatus = -67733
public let errSecUnsupportedKeyFormat: OSStatus = -67734
public let errSecUnsupportedKeySize: OSStatus = -67735
public let errSecInvalidKeyUsageMask: OSStatus = -67736
public let errSecUnsupportedKeyUsageMask: OSStatus = -67737
public let errSecInvalidKeyAttributeMask: OSStatus = -67738
public let errSecUnsupportedKeyAttributeMask: OSStatus = -67739
public let errSecInvalidKeyLabel: OSStatus = -67740
public let errSecUnsupportedKeyLabel: OSStatus = -67741
public let errSecInvalidKeyFormat: OSStatus = -67742
public let errSecUnsupportedVectorOfBuffers: OSStatus = -67743
public let errSecInvalidInputVector: OSStatus = -67744
public let errSecInvalidOutputVector: OSStatus = -67745
public let errSecInvalidContext: OSStatus = -67746
public let errSecInvalidAlgorithm: OSStatus = -67747
public let errSecInvalidAttributeKey: OSStatus = -67748
public let errSecMissingAttributeKey: OSStatus = -67749
public let errSecInvalidAttributeInitVector: OSStatus = -67750
public let errSecMissingAttributeInitVector: OSStatus = -67751
public let errSecInvalidAttributeSalt: OSStatus = -67752
public let errSecMissingAttributeSalt: OSStatus = -67753
public let errSecInvalidAttributePadding: OSStatus = -67754
public let errSecMissingAttributePadding: OSStatus = -67755
public let errSecInvalidAttributeRandom: OSStatus = -67756
public let errSecMissingAttributeRandom: OSStatus = -67757
public let errSecInvalidAttributeSeed: OSStatus = -67758
public let errSecMissingAttributeSeed: OSStatus = -67759
public let errSecInvalidAttributePassphrase: OSStatus = -67760
public let errSecMissingAttributePassphrase: OSStatus = -67761
public let errSecInvalidAttributeKeyLength: OSStatus = -67762
public let errSecMissingAttributeKeyLength: OSStatus = -67763
public let errSecInvalidAttributeBlockSize: OSStatus = -67764
public let errSecMissingAttributeBlockSize: OSStatus = -67765
public let errSecInvalidAttributeOutputSize: OSStatus = -67766
public let errSecMissingAttributeOutputSize: OSStatus = -67767
public let errSecInvalidAttributeRounds: OSStatus = -67768
public let errSecMissingAttributeRounds: OSStatus = -67769
public let errSecInvalidAlgorithmParms: OSStatus = -67770
public let errSecMissingAlgorithmParms: OSStatus = -67771
public let errSecInvalidAttributeLabel: OSStatus = -67772
public let errSecMissingAttributeLabel: OSStatus = -67773
public let errSecInvalidAttributeKeyType: OSStatus = -67774
public let errSecMissingAttributeKeyType: OSStatus = -67775
public let errSecInvalidAttributeMode: OSStatus = -67776
public let errSecMissingAttributeMode: OSStatus = -67777
public let errSecInvalidAttributeEffectiveBits: OSStatus = -67778
public let errSecMissingAttributeEffectiveBits: OSStatus = -67779
public let errSecInvalidAttributeStartDate: OSStatus = -67780
public let errSecMissingAttributeStartDate: OSStatus = -67781
public let errSecInvalidAttributeEndDate: OSStatus = -67782
public let errSecMissingAttributeEndDate: OSStatus = -67783
public let errSecInvalidAttributeVersion: OSStatus = -67784
public let errSecMissingAttributeVersion: OSStatus = -67785
public let errSecInvalidAttributePrime: OSStatus = -67786
public let errSecMissingAttributePrime: OSStatus = -67787
public let errSecInvalidAttributeBase: OSStatus = -67788
public let errSecMissingAttributeBase: OSStatus = -67789
public let errSecInvalidAttributeSubprime: OSStatus = -67790
public let errSecMissingAttributeSubprime: OSStatus = -67791
public let errSecInvalidAttributeIterationCount: OSStatus = -67792
public let errSecMissingAttributeIterationCount: OSStatus = -67793
public let errSecInvalidAttributeDLDBHandle: OSStatus = -67794
public let errSecMissingAttributeDLDBHandle: OSStatus = -67795
public let errSecInvalidAttributeAccessCredentials: OSStatus = -67796
public let errSecMissingAttributeAccessCredentials: OSStatus = -67797
public let errSecInvalidAttributePublicKeyFormat: OSStatus = -67798
public let errSecMissingAttributePublicKeyFormat: OSStatus = -67799
public let errSecInvalidAttributePrivateKeyFormat: OSStatus = -67800
public let errSecMissingAttributePrivateKeyFormat: OSStatus = -67801
public let errSecInvalidAttributeSymmetricKeyFormat: OSStatus = -67802
public let errSecMissingAttributeSymmetricKeyFormat: OSStatus = -67803
public let errSecInvalidAttributeWrappedKeyFormat: OSStatus = -67804
public let errSecMissingAttributeWrappedKeyFormat: OSStatus = -67805
public let errSecStagedOperationInProgress: OSStatus = -67806
public let errSecStagedOperationNotStarted: OSStatus = -67807
public let errSecVerifyFailed: OSStatus = -67808
public let errSecQuerySizeUnknown: OSStatus = -67809
public let errSecBlockSizeMismatch: OSStatus = -67810
public let errSecPublicKeyInconsistent: OSStatus = -67811
public let errSecDeviceVerifyFailed: OSStatus = -67812
public let errSecInvalidLoginName: OSStatus = -67813
public let errSecAlreadyLoggedIn: OSStatus = -67814
public let errSecInvalidDigestAlgorithm: OSStatus = -67815
public let errSecInvalidCRLGroup: OSStatus = -67816
public let errSecCertificateCannotOperate: OSStatus = -67817
public let errSecCertificateExpired: OSStatus = -67818
public let errSecCertificateNotValidYet: OSStatus = -67819
public let errSecCertificateRevoked: OSStatus = -67820
public let errSecCertificateSuspended: OSStatus = -67821
public let errSecInsufficientCredentials: OSStatus = -67822
public let errSecInvalidAction: OSStatus = -67823
public let errSecInvalidAuthority: OSStatus = -67824
public let errSecVerifyActionFailed: OSStatus = -67825
public let errSecInvalidCertAuthority: OSStatus = -67826
public let errSecInvaldCRLAuthority: OSStatus = -67827
public let errSecInvalidCRLEncoding: OSStatus = -67828
public let errSecInvalidCRLType: OSStatus = -67829
public let errSecInvalidCRL: OSStatus = -67830
public let errSecInvalidFormType: OSStatus = -67831
public let errSecInvalidID: OSStatus = -67832
public let errSecInvalidIdentifier: OSStatus = -67833
public let errSecInvalidIndex: OSStatus = -67834
public let errSecInvalidPolicyIdentifiers: OSStatus = -67835
public let errSecInvalidTimeString: OSStatus = -67836
public let errSecInvalidReason: OSStatus = -67837
public let errSecInvalidRequestInputs: OSStatus = -67838
public let errSecInvalidResponseVector: OSStatus = -67839
public let errSecInvalidStopOnPolicy: OSStatus = -67840
public let errSecInvalidTuple: OSStatus = -67841
public let errSecMultipleValuesUnsupported: OSStatus = -67842
public let errSecNotTrusted: OSStatus = -67843
public let errSecNoDefaultAuthority: OSStatus = -67844
public let errSecRejectedForm: OSStatus = -67845
public let errSecRequestLost: OSStatus = -67846
public let errSecRequestRejected: OSStatus = -67847
public let errSecUnsupportedAddressType: OSStatus = -67848
public let errSecUnsupportedService: OSStatus = -67849
public let errSecInvalidTupleGroup: OSStatus = -67850
public let errSecInvalidBaseACLs: OSStatus = -67851
public let errSecInvalidTupleCredendtials: OSStatus = -67852
public let errSecInvalidEncoding: OSStatus = -67853
public let errSecInvalidValidityPeriod: OSStatus = -67854
public let errSecInvalidRequestor: OSStatus = -67855
public let errSecRequestDescriptor: OSStatus = -67856
public let errSecInvalidBundleInfo: OSStatus = -67857
public let errSecInvalidCRLIndex: OSStatus = -67858
public let errSecNoFieldValues: OSStatus = -67859
public let errSecUnsupportedFieldFormat: OSStatus = -67860
public let errSecUnsupportedIndexInfo: OSStatus = -67861
public let errSecUnsupportedLocality: OSStatus = -67862
public let errSecUnsupportedNumAttributes: OSStatus = -67863
public let errSecUnsupportedNumIndexes: OSStatus = -67864
public let errSecUnsupportedNumRecordTypes: OSStatus = -67865
public let errSecFieldSpecifiedMultiple: OSStatus = -67866
public let errSecIncompatibleFieldFormat: OSStatus = -67867
public let errSecInvalidParsingModule: OSStatus = -67868
public let errSecDatabaseLocked: OSStatus = -67869
public let errSecDatastoreIsOpen: OSStatus = -67870
public let errSecMissingValue: OSStatus = -67871
public let errSecUnsupportedQueryLimits: OSStatus = -67872
public let errSecUnsupportedNumSelectionPreds: OSStatus = -67873
public let errSecUnsupportedOperator: OSStatus = -67874
public let errSecInvalidDBLocation: OSStatus = -67875
public let errSecInvalidAccessRequest: OSStatus = -67876
public let errSecInvalidIndexInfo: OSStatus = -67877
public let errSecInvalidNewOwner: OSStatus = -67878
public let errSecInvalidModifyMode: OSStatus = -67879
public let errSecMissingRequiredExtension: OSStatus = -67880
public let errSecExtendedKeyUsageNotCritical: OSStatus = -67881
public let errSecTimestampMissing: OSStatus = -67882
public let errSecTimestampInvalid: OSStatus = -67883
public let errSecTimestampNotTrusted: OSStatus = -67884
public let errSecTimestampServiceNotAvailable: OSStatus = -67885
public let errSecTimestampBadAlg: OSStatus = -67886
public let errSecTimestampBadRequest: OSStatus = -67887
public let errSecTimestampBadDataFormat: OSStatus = -67888
public let errSecTimestampTimeNotAvailable: OSStatus = -67889
public let errSecTimestampUnacceptedPolicy: OSStatus = -67890
public let errSecTimestampUnacceptedExtension: OSStatus = -67891
public let errSecTimestampAddInfoNotAvailable: OSStatus = -67892
public let errSecTimestampSystemFailure: OSStatus = -67893
public let errSecSigningTimeMissing: OSStatus = -67894
public let errSecTimestampRejection: OSStatus = -67895
public let errSecTimestampWaiting: OSStatus = -67896
public let errSecTimestampRevocationWarning: OSStatus = -67897
public let errSecTimestampRevocationNotification: OSStatus = -67898
public let errSecCertificatePolicyNotAllowed: OSStatus = -67899
public let errSecCertificateNameNotAllowed: OSStatus = -67900
public let errSecCertificateValidityPeriodTooLong: OSStatus = -67901

/// The messages `SecCopyErrorMessageString` gives for the codes a keychain call can answer.
let keychainErrorMessages: [OSStatus: (name: String, message: String)] = [
    0: ("errSecSuccess", "No error."),
    -4: ("errSecUnimplemented", "Function or operation not implemented."),
    -34: ("errSecDiskFull", "The disk is full."),
    -36: ("errSecIO", "I/O error."),
    -49: ("errSecOpWr", "File already open with write permission."),
    -50: ("errSecParam", "One or more parameters passed to a function were not valid."),
    -61: ("errSecWrPerm", "Write permissions error."),
    -108: ("errSecAllocate", "Failed to allocate memory."),
    -128: ("errSecUserCanceled", "User canceled the operation."),
    -909: ("errSecBadReq", "Bad parameter or invalid state for operation."),
    -2070: ("errSecInternalComponent", "An internal component failed."),
    -4960: ("errSecCoreFoundationUnknown", "An unknown Core Foundation error occurred."),
    -34018: ("errSecMissingEntitlement", "A required entitlement isn't present."),
    -34020: ("errSecRestrictedAPI", "Client is restricted and is not permitted to perform this operation."),
    -25291: ("errSecNotAvailable", "No keychain is available. You may need to restart your computer."),
    -25292: ("errSecReadOnly", "This keychain cannot be modified."),
    -25293: ("errSecAuthFailed", "The user name or passphrase you entered is not correct."),
    -25294: ("errSecNoSuchKeychain", "The specified keychain could not be found."),
    -25295: ("errSecInvalidKeychain", "The specified keychain is not a valid keychain file."),
    -25296: ("errSecDuplicateKeychain", "A keychain with the same name already exists."),
    -25297: ("errSecDuplicateCallback", "The specified callback function is already installed."),
    -25298: ("errSecInvalidCallback", "The specified callback function is not valid."),
    -25299: ("errSecDuplicateItem", "The specified item already exists in the keychain."),
    -25300: ("errSecItemNotFound", "The specified item could not be found in the keychain."),
    -25301: ("errSecBufferTooSmall", "There is not enough memory available to use the specified item."),
    -25302: ("errSecDataTooLarge", "This item contains information which is too large or in a format that cannot be displayed."),
    -25303: ("errSecNoSuchAttr", "The specified attribute does not exist."),
    -25304: ("errSecInvalidItemRef", "The specified item is no longer valid. It may have been deleted from the keychain."),
    -25305: ("errSecInvalidSearchRef", "Unable to search the current keychain."),
    -25306: ("errSecNoSuchClass", "The specified item does not appear to be a valid keychain item."),
    -25307: ("errSecNoDefaultKeychain", "A default keychain could not be found."),
    -25308: ("errSecInteractionNotAllowed", "User interaction is not allowed."),
    -25309: ("errSecReadOnlyAttr", "The specified attribute could not be modified."),
    -25310: ("errSecWrongSecVersion", "This keychain was created by a different version of the system software and cannot be opened."),
    -25311: ("errSecKeySizeNotAllowed", "This item specifies a key size which is too large or too small."),
    -25312: ("errSecNoStorageModule", "A required component (data storage module) could not be loaded. You may need to restart your computer."),
    -25313: ("errSecNoCertificateModule", "A required component (certificate module) could not be loaded. You may need to restart your computer."),
    -25314: ("errSecNoPolicyModule", "A required component (policy module) could not be loaded. You may need to restart your computer."),
    -25315: ("errSecInteractionRequired", "User interaction is required, but is currently not allowed."),
    -25316: ("errSecDataNotAvailable", "The contents of this item cannot be retrieved."),
    -25317: ("errSecDataNotModifiable", "The contents of this item cannot be modified."),
    -25318: ("errSecCreateChainFailed", "One or more certificates required to validate this certificate cannot be found."),
    -25319: ("errSecInvalidPrefsDomain", "The specified preferences domain is not valid."),
    -25320: ("errSecInDarkWake", "In dark wake, no UI possible"),
    -25240: ("errSecACLNotSimple", "The specified access control list is not in standard (simple) form."),
    -25241: ("errSecPolicyNotFound", "The specified policy cannot be found."),
    -25242: ("errSecInvalidTrustSetting", "The specified trust setting is invalid."),
    -25243: ("errSecNoAccessForItem", "The specified item has no access control."),
    -25244: ("errSecInvalidOwnerEdit", "Invalid attempt to change the owner of this item."),
    -25245: ("errSecTrustNotAvailable", "No trust results are available."),
    -25256: ("errSecUnsupportedFormat", "Import/Export format unsupported."),
    -25257: ("errSecUnknownFormat", "Unknown format in import."),
    -25258: ("errSecKeyIsSensitive", "Key material must be wrapped for export."),
    -25259: ("errSecMultiplePrivKeys", "An attempt was made to import multiple private keys."),
    -25260: ("errSecPassphraseRequired", "Passphrase is required for import/export."),
    -25261: ("errSecInvalidPasswordRef", "The password reference was invalid."),
    -25262: ("errSecInvalidTrustSettings", "The Trust Settings Record was corrupted."),
    -25263: ("errSecNoTrustSettings", "No Trust Settings were found."),
    -25264: ("errSecPkcs12VerifyFailure", "MAC verification failed during PKCS12 import (wrong password?)"),
    -26267: ("errSecNotSigner", "A certificate was not signed by its proposed parent."),
    -26275: ("errSecDecode", "Unable to decode the provided data."),
]

/// Names of the remaining codes, for diagnostics.
let otherErrorNames: [OSStatus: String] = [
    -67585: "errSecServiceNotAvailable",
    -67586: "errSecInsufficientClientID",
    -67587: "errSecDeviceReset",
    -67588: "errSecDeviceFailed",
    -67589: "errSecAppleAddAppACLSubject",
    -67590: "errSecApplePublicKeyIncomplete",
    -67591: "errSecAppleSignatureMismatch",
    -67592: "errSecAppleInvalidKeyStartDate",
    -67593: "errSecAppleInvalidKeyEndDate",
    -67594: "errSecConversionError",
    -67595: "errSecAppleSSLv2Rollback",
    -67596: "errSecQuotaExceeded",
    -67597: "errSecFileTooBig",
    -67598: "errSecInvalidDatabaseBlob",
    -67599: "errSecInvalidKeyBlob",
    -67600: "errSecIncompatibleDatabaseBlob",
    -67601: "errSecIncompatibleKeyBlob",
    -67602: "errSecHostNameMismatch",
    -67603: "errSecUnknownCriticalExtensionFlag",
    -67604: "errSecNoBasicConstraints",
    -67605: "errSecNoBasicConstraintsCA",
    -67606: "errSecInvalidAuthorityKeyID",
    -67607: "errSecInvalidSubjectKeyID",
    -67608: "errSecInvalidKeyUsageForPolicy",
    -67609: "errSecInvalidExtendedKeyUsage",
    -67610: "errSecInvalidIDLinkage",
    -67611: "errSecPathLengthConstraintExceeded",
    -67612: "errSecInvalidRoot",
    -67613: "errSecCRLExpired",
    -67614: "errSecCRLNotValidYet",
    -67615: "errSecCRLNotFound",
    -67616: "errSecCRLServerDown",
    -67617: "errSecCRLBadURI",
    -67618: "errSecUnknownCertExtension",
    -67619: "errSecUnknownCRLExtension",
    -67620: "errSecCRLNotTrusted",
    -67621: "errSecCRLPolicyFailed",
    -67622: "errSecIDPFailure",
    -67623: "errSecSMIMEEmailAddressesNotFound",
    -67624: "errSecSMIMEBadExtendedKeyUsage",
    -67625: "errSecSMIMEBadKeyUsage",
    -67626: "errSecSMIMEKeyUsageNotCritical",
    -67627: "errSecSMIMENoEmailAddress",
    -67628: "errSecSMIMESubjAltNameNotCritical",
    -67629: "errSecSSLBadExtendedKeyUsage",
    -67630: "errSecOCSPBadResponse",
    -67631: "errSecOCSPBadRequest",
    -67632: "errSecOCSPUnavailable",
    -67633: "errSecOCSPStatusUnrecognized",
    -67634: "errSecEndOfData",
    -67635: "errSecIncompleteCertRevocationCheck",
    -67636: "errSecNetworkFailure",
    -67637: "errSecOCSPNotTrustedToAnchor",
    -67638: "errSecRecordModified",
    -67639: "errSecOCSPSignatureError",
    -67640: "errSecOCSPNoSigner",
    -67641: "errSecOCSPResponderMalformedReq",
    -67642: "errSecOCSPResponderInternalError",
    -67643: "errSecOCSPResponderTryLater",
    -67644: "errSecOCSPResponderSignatureRequired",
    -67645: "errSecOCSPResponderUnauthorized",
    -67646: "errSecOCSPResponseNonceMismatch",
    -67647: "errSecCodeSigningBadCertChainLength",
    -67648: "errSecCodeSigningNoBasicConstraints",
    -67649: "errSecCodeSigningBadPathLengthConstraint",
    -67650: "errSecCodeSigningNoExtendedKeyUsage",
    -67651: "errSecCodeSigningDevelopment",
    -67652: "errSecResourceSignBadCertChainLength",
    -67653: "errSecResourceSignBadExtKeyUsage",
    -67654: "errSecTrustSettingDeny",
    -67655: "errSecInvalidSubjectName",
    -67656: "errSecUnknownQualifiedCertStatement",
    -67657: "errSecMobileMeRequestQueued",
    -67658: "errSecMobileMeRequestRedirected",
    -67659: "errSecMobileMeServerError",
    -67660: "errSecMobileMeServerNotAvailable",
    -67661: "errSecMobileMeServerAlreadyExists",
    -67662: "errSecMobileMeServerServiceErr",
    -67663: "errSecMobileMeRequestAlreadyPending",
    -67664: "errSecMobileMeNoRequestPending",
    -67665: "errSecMobileMeCSRVerifyFailure",
    -67666: "errSecMobileMeFailedConsistencyCheck",
    -67667: "errSecNotInitialized",
    -67668: "errSecInvalidHandleUsage",
    -67669: "errSecPVCReferentNotFound",
    -67670: "errSecFunctionIntegrityFail",
    -67671: "errSecInternalError",
    -67672: "errSecMemoryError",
    -67673: "errSecInvalidData",
    -67674: "errSecMDSError",
    -67675: "errSecInvalidPointer",
    -67676: "errSecSelfCheckFailed",
    -67677: "errSecFunctionFailed",
    -67678: "errSecModuleManifestVerifyFailed",
    -67679: "errSecInvalidGUID",
    -67680: "errSecInvalidHandle",
    -67681: "errSecInvalidDBList",
    -67682: "errSecInvalidPassthroughID",
    -67683: "errSecInvalidNetworkAddress",
    -67684: "errSecCRLAlreadySigned",
    -67685: "errSecInvalidNumberOfFields",
    -67686: "errSecVerificationFailure",
    -67687: "errSecUnknownTag",
    -67688: "errSecInvalidSignature",
    -67689: "errSecInvalidName",
    -67690: "errSecInvalidCertificateRef",
    -67691: "errSecInvalidCertificateGroup",
    -67692: "errSecTagNotFound",
    -67693: "errSecInvalidQuery",
    -67694: "errSecInvalidValue",
    -67695: "errSecCallbackFailed",
    -67696: "errSecACLDeleteFailed",
    -67697: "errSecACLReplaceFailed",
    -67698: "errSecACLAddFailed",
    -67699: "errSecACLChangeFailed",
    -67700: "errSecInvalidAccessCredentials",
    -67701: "errSecInvalidRecord",
    -67702: "errSecInvalidACL",
    -67703: "errSecInvalidSampleValue",
    -67704: "errSecIncompatibleVersion",
    -67705: "errSecPrivilegeNotGranted",
    -67706: "errSecInvalidScope",
    -67707: "errSecPVCAlreadyConfigured",
    -67708: "errSecInvalidPVC",
    -67709: "errSecEMMLoadFailed",
    -67710: "errSecEMMUnloadFailed",
    -67711: "errSecAddinLoadFailed",
    -67712: "errSecInvalidKeyRef",
    -67713: "errSecInvalidKeyHierarchy",
    -67714: "errSecAddinUnloadFailed",
    -67715: "errSecLibraryReferenceNotFound",
    -67716: "errSecInvalidAddinFunctionTable",
    -67717: "errSecInvalidServiceMask",
    -67718: "errSecModuleNotLoaded",
    -67719: "errSecInvalidSubServiceID",
    -67720: "errSecAttributeNotInContext",
    -67721: "errSecModuleManagerInitializeFailed",
    -67722: "errSecModuleManagerNotFound",
    -67723: "errSecEventNotificationCallbackNotFound",
    -67724: "errSecInputLengthError",
    -67725: "errSecOutputLengthError",
    -67726: "errSecPrivilegeNotSupported",
    -67727: "errSecDeviceError",
    -67728: "errSecAttachHandleBusy",
    -67729: "errSecNotLoggedIn",
    -67730: "errSecAlgorithmMismatch",
    -67731: "errSecKeyUsageIncorrect",
    -67732: "errSecKeyBlobTypeIncorrect",
    -67733: "errSecKeyHeaderInconsistent",
    -67734: "errSecUnsupportedKeyFormat",
    -67735: "errSecUnsupportedKeySize",
    -67736: "errSecInvalidKeyUsageMask",
    -67737: "errSecUnsupportedKeyUsageMask",
    -67738: "errSecInvalidKeyAttributeMask",
    -67739: "errSecUnsupportedKeyAttributeMask",
    -67740: "errSecInvalidKeyLabel",
    -67741: "errSecUnsupportedKeyLabel",
    -67742: "errSecInvalidKeyFormat",
    -67743: "errSecUnsupportedVectorOfBuffers",
    -67744: "errSecInvalidInputVector",
    -67745: "errSecInvalidOutputVector",
    -67746: "errSecInvalidContext",
    -67747: "errSecInvalidAlgorithm",
    -67748: "errSecInvalidAttributeKey",
    -67749: "errSecMissingAttributeKey",
    -67750: "errSecInvalidAttributeInitVector",
    -67751: "errSecMissingAttributeInitVector",
    -67752: "errSecInvalidAttributeSalt",
    -67753: "errSecMissingAttributeSalt",
    -67754: "errSecInvalidAttributePadding",
    -67755: "errSecMissingAttributePadding",
    -67756: "errSecInvalidAttributeRandom",
    -67757: "errSecMissingAttributeRandom",
    -67758: "errSecInvalidAttributeSeed",
    -67759: "errSecMissingAttributeSeed",
    -67760: "errSecInvalidAttributePassphrase",
    -67761: "errSecMissingAttributePassphrase",
    -67762: "errSecInvalidAttributeKeyLength",
    -67763: "errSecMissingAttributeKeyLength",
    -67764: "errSecInvalidAttributeBlockSize",
    -67765: "errSecMissingAttributeBlockSize",
    -67766: "errSecInvalidAttributeOutputSize",
    -67767: "errSecMissingAttributeOutputSize",
    -67768: "errSecInvalidAttributeRounds",
    -67769: "errSecMissingAttributeRounds",
    -67770: "errSecInvalidAlgorithmParms",
    -67771: "errSecMissingAlgorithmParms",
    -67772: "errSecInvalidAttributeLabel",
    -67773: "errSecMissingAttributeLabel",
    -67774: "errSecInvalidAttributeKeyType",
    -67775: "errSecMissingAttributeKeyType",
    -67776: "errSecInvalidAttributeMode",
    -67777: "errSecMissingAttributeMode",
    -67778: "errSecInvalidAttributeEffectiveBits",
    -67779: "errSecMissingAttributeEffectiveBits",
    -67780: "errSecInvalidAttributeStartDate",
    -67781: "errSecMissingAttributeStartDate",
    -67782: "errSecInvalidAttributeEndDate",
    -67783: "errSecMissingAttributeEndDate",
    -67784: "errSecInvalidAttributeVersion",
    -67785: "errSecMissingAttributeVersion",
    -67786: "errSecInvalidAttributePrime",
    -67787: "errSecMissingAttributePrime",
    -67788: "errSecInvalidAttributeBase",
    -67789: "errSecMissingAttributeBase",
    -67790: "errSecInvalidAttributeSubprime",
    -67791: "errSecMissingAttributeSubprime",
    -67792: "errSecInvalidAttributeIterationCount",
    -67793: "errSecMissingAttributeIterationCount",
    -67794: "errSecInvalidAttributeDLDBHandle",
    -67795: "errSecMissingAttributeDLDBHandle",
    -67796: "errSecInvalidAttributeAccessCredentials",
    -67797: "errSecMissingAttributeAccessCredentials",
    -67798: "errSecInvalidAttributePublicKeyFormat",
    -67799: "errSecMissingAttributePublicKeyFormat",
    -67800: "errSecInvalidAttributePrivateKeyFormat",
    -67801: "errSecMissingAttributePrivateKeyFormat",
    -67802: "errSecInvalidAttributeSymmetricKeyFormat",
    -67803: "errSecMissingAttributeSymmetricKeyFormat",
    -67804: "errSecInvalidAttributeWrappedKeyFormat",
    -67805: "errSecMissingAttributeWrappedKeyFormat",
    -67806: "errSecStagedOperationInProgress",
    -67807: "errSecStagedOperationNotStarted",
    -67808: "errSecVerifyFailed",
    -67809: "errSecQuerySizeUnknown",
    -67810: "errSecBlockSizeMismatch",
    -67811: "errSecPublicKeyInconsistent",
    -67812: "errSecDeviceVerifyFailed",
    -67813: "errSecInvalidLoginName",
    -67814: "errSecAlreadyLoggedIn",
    -67815: "errSecInvalidDigestAlgorithm",
    -67816: "errSecInvalidCRLGroup",
    -67817: "errSecCertificateCannotOperate",
    -67818: "errSecCertificateExpired",
    -67819: "errSecCertificateNotValidYet",
    -67820: "errSecCertificateRevoked",
    -67821: "errSecCertificateSuspended",
    -67822: "errSecInsufficientCredentials",
    -67823: "errSecInvalidAction",
    -67824: "errSecInvalidAuthority",
    -67825: "errSecVerifyActionFailed",
    -67826: "errSecInvalidCertAuthority",
    -67827: "errSecInvaldCRLAuthority",
    -67828: "errSecInvalidCRLEncoding",
    -67829: "errSecInvalidCRLType",
    -67830: "errSecInvalidCRL",
    -67831: "errSecInvalidFormType",
    -67832: "errSecInvalidID",
    -67833: "errSecInvalidIdentifier",
    -67834: "errSecInvalidIndex",
    -67835: "errSecInvalidPolicyIdentifiers",
    -67836: "errSecInvalidTimeString",
    -67837: "errSecInvalidReason",
    -67838: "errSecInvalidRequestInputs",
    -67839: "errSecInvalidResponseVector",
    -67840: "errSecInvalidStopOnPolicy",
    -67841: "errSecInvalidTuple",
    -67842: "errSecMultipleValuesUnsupported",
    -67843: "errSecNotTrusted",
    -67844: "errSecNoDefaultAuthority",
    -67845: "errSecRejectedForm",
    -67846: "errSecRequestLost",
    -67847: "errSecRequestRejected",
    -67848: "errSecUnsupportedAddressType",
    -67849: "errSecUnsupportedService",
    -67850: "errSecInvalidTupleGroup",
    -67851: "errSecInvalidBaseACLs",
    -67852: "errSecInvalidTupleCredendtials",
    -67853: "errSecInvalidEncoding",
    -67854: "errSecInvalidValidityPeriod",
    -67855: "errSecInvalidRequestor",
    -67856: "errSecRequestDescriptor",
    -67857: "errSecInvalidBundleInfo",
    -67858: "errSecInvalidCRLIndex",
    -67859: "errSecNoFieldValues",
    -67860: "errSecUnsupportedFieldFormat",
    -67861: "errSecUnsupportedIndexInfo",
    -67862: "errSecUnsupportedLocality",
    -67863: "errSecUnsupportedNumAttributes",
    -67864: "errSecUnsupportedNumIndexes",
    -67865: "errSecUnsupportedNumRecordTypes",
    -67866: "errSecFieldSpecifiedMultiple",
    -67867: "errSecIncompatibleFieldFormat",
    -67868: "errSecInvalidParsingModule",
    -67869: "errSecDatabaseLocked",
    -67870: "errSecDatastoreIsOpen",
    -67871: "errSecMissingValue",
    -67872: "errSecUnsupportedQueryLimits",
    -67873: "errSecUnsupportedNumSelectionPreds",
    -67874: "errSecUnsupportedOperator",
    -67875: "errSecInvalidDBLocation",
    -67876: "errSecInvalidAccessRequest",
    -67877: "errSecInvalidIndexInfo",
    -67878: "errSecInvalidNewOwner",
    -67879: "errSecInvalidModifyMode",
    -67880: "errSecMissingRequiredExtension",
    -67881: "errSecExtendedKeyUsageNotCritical",
    -67882: "errSecTimestampMissing",
    -67883: "errSecTimestampInvalid",
    -67884: "errSecTimestampNotTrusted",
    -67885: "errSecTimestampServiceNotAvailable",
    -67886: "errSecTimestampBadAlg",
    -67887: "errSecTimestampBadRequest",
    -67888: "errSecTimestampBadDataFormat",
    -67889: "errSecTimestampTimeNotAvailable",
    -67890: "errSecTimestampUnacceptedPolicy",
    -67891: "errSecTimestampUnacceptedExtension",
    -67892: "errSecTimestampAddInfoNotAvailable",
    -67893: "errSecTimestampSystemFailure",
    -67894: "errSecSigningTimeMissing",
    -67895: "errSecTimestampRejection",
    -67896: "errSecTimestampWaiting",
    -67897: "errSecTimestampRevocationWarning",
    -67898: "errSecTimestampRevocationNotification",
    -67899: "errSecCertificatePolicyNotAllowed",
    -67900: "errSecCertificateNameNotAllowed",
    -67901: "errSecCertificateValidityPeriodTooLong",
]
