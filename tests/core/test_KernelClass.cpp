// Kernel classes (models/KernelClass.h) per library family, CUDA and ROCm, and which kernels count
// as communication (trace/Collective.h).
#include "TestSupport.h"

#include "models/KernelClass.h"
#include "trace/Collective.h"

using namespace sl;

namespace {

QString classOf(const KernelClassifier& c, const char* name, EventKind kind = EventKind::Kernel) {
    std::string_view n = kernelClassName(c.classify(name, kind));
    return QString::fromUtf8(n.data(), qsizetype(n.size()));
}

} // namespace

class TestKernelClass : public QObject {
    Q_OBJECT

    void addRow(const char* name, const char* cls) {
        QTest::newRow(name) << QByteArray(name) << QString(cls);
    }

private slots:
    void defaults_data() {
        QTest::addColumn<QByteArray>("name");
        QTest::addColumn<QString>("cls");
        // CUDA libraries (unchanged behaviour).
        addRow("sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize128x128x64", "gemm");
        addRow("ampere_sgemm_128x64_tn", "gemm");
        addRow("void cutlass::Kernel2<cutlass_80_tensorop_s16816gemm_relu_bf16_128x128_32x3_nn_align8>",
               "gemm");
        addRow("pytorch_flash::flash_fwd_kernel<Flash_fwd_kernel_traits<128>>", "attention");
        addRow("void at::native::vectorized_elementwise_kernel<4, at::native::GeluCUDAKernelImpl>",
               "elementwise");
        addRow("void at::native::reduce_kernel<512, 1>", "reduction");
        addRow("void at::native::index_select_kernel", "memory");
        addRow("my_custom_kernel", "other");
        // rocBLAS, hipBLASLt and Tensile.
        addRow(
            "Cijk_Ailk_Bljk_BBS_BH_MT128x128x32_MI32x32x8x1_SN_1LDSB0_APM1_ABV0_ACED0_AF0EM1_AF1EM1_AMAS3_"
            "ASE_ASGT_ASLT_ASAE01_ASCE01_ASEM1_AAC0_BL1_BS1_DTL0_DTVA0_DVO0_ETSP_EPS1_FL0_GRPM1_GRVW8_GSU1",
            "gemm");
        addRow("Cijk_Alik_Bljk_BBS_BH_Bias_HA_S_SAV_UserArgs_MT256x256x64_MI16x16x1_SN_LDSB1_AFC1_AFEM1",
               "gemm");
        addRow("Custom_Cijk_Alik_Bljk_HHS_BH_MT128x128x64_MI16x16x16x1", "gemm");
        addRow("void rocblas_gemvn_kernel<64, 16, float>", "gemm");
        addRow("rocblas_gemm_batched_general_kernel", "gemm");
        addRow("hipblasltExtSoftmaxKernel", "reduction"); // hipBLASLt's own helpers go by their words
        // Composable Kernel.
        addRow(
            "void ck::kernel_gemm_xdl_cshuffle_v3<ck::GridwiseGemm_xdl_cshuffle_v3<ck::tensor_layout::gemm::"
            "RowMajor>, true, 2>(ck::GridwiseGemm_xdl_cshuffle_v3::Argument)",
            "gemm");
        addRow("ck::tensor_operation::device::DeviceGemmXdlUniversal<>", "gemm");
        addRow("void ck::kernel_grouped_conv_fwd_multiple_abd_xdl_cshuffle<ck::GridwiseGemmMultipleABD>",
               "gemm");
        addRow("void ck::kernel_contraction_multiple_d_xdl_cshuffle<ck::GridwiseContraction>", "gemm");
        addRow("void ck::kernel_batched_gemm_softmax_gemm_xdl_cshuffle_v1<ck::Gridwise>", "attention");
        addRow("void ck_tile::kentry<64, 2, ck_tile::FmhaFwdKernel<ck_tile::BlockFmhaPipelineQRKSVSAsync>>",
               "attention");
        addRow("void ck_tile::kentry<256, 1, ck_tile::Layernorm2dFwd<ck_tile::Layernorm2dFwdPipeline>>",
               "reduction");
        addRow("void ck::kernel_elementwise<ck::GridwiseElementwise<ck::Tuple<>>>", "elementwise");
        addRow("void ck_tile::kentry<256, 1, ck_tile::MoeFlatmmKernel<ck_tile::MoeFlatmmPipeline>>", "gemm");
        addRow("void ck_tile::kentry<256, 1, ck_tile::MoeSortingKernel<>>", "other"); // ck_tile: by its words
        addRow("void ck::kernel_pool2d_fwd<ck::GridwisePool>", "other");
        // MIOpen.
        addRow("naive_conv_fwd_nchw_float_double_float", "gemm");
        addRow("naive_conv_ab_nonpacked_bwd_nhwc_half_double_half", "gemm");
        addRow("MIOpenConvUni", "gemm");
        addRow("MIOpenConv1x1", "gemm");
        addRow("MIOpenGroupConvUni", "gemm");
        addRow("MIOpenCvD3x3_WSR0", "gemm");
        addRow("miopenSp3AsmConv_v21_1_3_gfx9_fp32_stride1", "gemm");
        addRow("igemm_fwd_gtcx_nhwc_fp16_bx0_ex1_bt256x128x32_wt32x32x8_ws2x1_wt2x4_gkgs", "gemm");
        addRow("gridwise_convolution_implicit_gemm_v4r4_nchw_kcyx_nkhw", "gemm");
        addRow("MIOpenBatchNormFwdTrainSpatial", "reduction");
        addRow("MIOpenSoftmaxFwd", "reduction");
        addRow("MIOpenPoolingForwardNDNCHW", "other");
        addRow("MIOpenActiveFwd2DLite", "other");
        addRow("MIOpenDirConvFwd", "gemm"); // an MIOpen kernel no pattern claims: its conv work
        // AMD runtime helpers.
        addRow("__amd_rocclr_fillBufferAligned", "memory");
        addRow("__amd_rocclr_copyBuffer", "memory");
        // Triton (torch.compile / Inductor): the prefix decides.
        addRow("triton_poi_fused_add_native_layer_norm_0", "elementwise");
        addRow("triton_poi_fused_convolution_relu_3", "elementwise");
        addRow("triton_poi_fused__softmax_2", "elementwise");
        addRow("triton_poi_fused_cat_7", "elementwise");
        addRow("triton_for_fused_0", "elementwise");
        addRow("triton_red_fused_native_layer_norm_1", "reduction");
        addRow("triton_red_fused_add_sum_4", "reduction");
        addRow("triton_per_fused__softmax_2", "reduction");
        addRow("triton_tem_fused_addmm_relu_5", "gemm");
        addRow("triton_tem_fused_mm_0", "gemm");
        addRow("triton_tem_fused_flex_attention_0", "attention");
        addRow("triton_unk_fused_bmm_4", "gemm");
        addRow("triton_mm", "gemm");
        addRow("triton__0d1d2d3de", "other");
        addRow("_attn_fwd", "attention"); // Triton's flash attention tutorial kernel
    }
    void defaults() {
        QFETCH(QByteArray, name);
        QFETCH(QString, cls);
        KernelClassifier c;
        QCOMPARE(classOf(c, name.constData()), cls);
        // A leading "void " changes nothing.
        if (!name.startsWith("void ")) QCOMPARE(classOf(c, ("void " + name).constData()), cls);
    }

    void copiesAreMemory() {
        KernelClassifier c;
        QCOMPARE(classOf(c, "Memcpy HtoD (Host -> Device)", EventKind::GpuMemcpy), QString("memory"));
        QCOMPARE(classOf(c, "Memset (Device)", EventKind::GpuMemset), QString("memory"));
        QCOMPARE(classOf(c, "triton_tem_fused_mm_0", EventKind::GpuMemcpy), QString("memory"));
    }

    // A replaced pattern means exactly what it says: the family rules for its class step aside.
    void replacedPatternsWin() {
        KernelClassifier c;
        c.setPattern(KernelClass::Gemm, "^my_.*kernel$");
        QCOMPARE(classOf(c, "my_custom_kernel"), QString("gemm"));
        QCOMPARE(classOf(c, "ampere_sgemm_128x64_tn"), QString("other"));
        QCOMPARE(classOf(c, "Cijk_Ailk_Bljk_BBS_BH_MT128x128x32"), QString("other"));
        QCOMPARE(classOf(c, "void ck::kernel_contraction_multiple_d_xdl_cshuffle<>"), QString("other"));
        QCOMPARE(classOf(c, "triton_tem_fused_mm_0"), QString("other"));
        // Other classes keep their rules.
        QCOMPARE(classOf(c, "triton_poi_fused_convolution_relu_3"), QString("elementwise"));

        KernelClassifier e;
        e.setPattern(KernelClass::Elementwise, "^never$");
        // The Triton prefix would pick elementwise, whose pattern is replaced: the patterns decide.
        QCOMPARE(classOf(e, "triton_poi_fused_convolution_relu_3"), QString("gemm"));
        QCOMPARE(classOf(e, "triton_red_fused_add_sum_4"), QString("reduction"));
        // Setting the default text back restores the rule.
        e.setPattern(KernelClass::Elementwise, kDefaultKernelClassPatterns[int(KernelClass::Elementwise)]);
        QCOMPARE(classOf(e, "triton_poi_fused_convolution_relu_3"), QString("elementwise"));
    }

    void communication_data() {
        QTest::addColumn<QByteArray>("name");
        QTest::addColumn<bool>("collective");
        QTest::addColumn<bool>("communication");
        auto row = [](const char* n, bool coll, bool comm) {
            QTest::newRow(n) << QByteArray(n) << coll << comm;
        };
        row("ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevComm*, unsigned long, ncclWork*)", true, true);
        row("void ncclKernel_AllGather_RING_LL_Sum_int8_t(ncclDevComm*, unsigned long, ncclWork*)", true,
            true);
        row("ncclDevKernel_Generic_1", true, true); // RCCL
        row("mscclKernel_Sum_hip_bfloat16_Simple_false", true, true);
        row("rcclKernel_AllReduce", true, true);
        row("void deep_ep::intranode::dispatch<8, 768, 6144>(int4*, float*, int*)", false, true);
        row("void deep_ep::intranode::combine<__nv_bfloat16, 8, 768>(...)", false, true);
        row("void deep_ep::internode::dispatch<false, 8, 16>(...)", false, true);
        row("void deep_ep::internode::combine<8, 16>(...)", false, true);
        row("void deep_ep::internode_ll::dispatch<true, 3, 7168>(...)", false, true);
        row("void deep_ep::intranode::notify_dispatch<8>(...)", false, true);
        row("void deep_ep::layout::get_dispatch_layout<256, 32, 8>(...)", false, false);
        row("deepep_low_latency_combine", false, true);
        // DeepSeek's DeepEP build: every dpsk::ep:: kernel moves data (issue: cached_notify was compute).
        row("void dpsk::ep::internode::cached_notify<8>(int*, int*, int)", false, true);
        row("void dpsk::ep::intranode::notify_dispatch<8>(int const*, int*)", false, true);
        row("void dpsk::ep::internode::dispatch<false, 8>(...)", false, true);
        row("void dpsk::ep::internode_ll::combine<8>(...)", false, true);
        row("void dpsk::ep::intranode::barrier<8>(int**, int)", false, true);
        row("void moe::internode::notify_kernel<4>", false, true);
        row("void nvshmemi_proxy_kernel(...)", false, true);
        row("nvshmemx_barrier_all_on_stream_kernel", false, true);
        row("rocshmem_wg_putmem_kernel", false, true);
        row("mscclpp::allreduce8<__half>", false, true);
        row("void aiter::cross_device_reduce_2stage<bf16, 8, false>(...)", false, true);
        row("void vllm::cross_device_reduce_1stage<half, 8>(...)", false, true);
        row("void moe::internode::dispatch_kernel<4>", false, true);
        row("void moe::intranode::combine_kernel<4>", false, true);
        row("void moe::intranode::copy_kernel<4>", false, false);
        row("ampere_sgemm_128x64_tn", false, false);
        row("void at::native::reduce_kernel<512, 1>", false, false);
        row("dispatch_combine_fused", false, false);
    }
    void communication() {
        QFETCH(QByteArray, name);
        QFETCH(bool, collective);
        QFETCH(bool, communication);
        QCOMPARE(isCollectiveKernelName(name.toStdString()), collective);
        QCOMPARE(isCommunicationKernelName(name.toStdString()), communication);
    }
};

QTEST_GUILESS_MAIN(TestKernelClass)
#include "test_KernelClass.moc"
